import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import "./styles.css";

// "/" is served the app too; the app's own address space is /app.
if (window.location.pathname === "/") window.history.replaceState(null, "", "/app");

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
