// The shared styles come first, then the components' and features' own stylesheets (each imported by the
// module it styles), then the loading placeholders, which override the items they stand in for.
import "./styles/tokens.css";
import "./styles/base.css";
import "./styles/controls.css";
import "./styles/layout.css";
import "./styles/content.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import "./styles/skeleton.css";

// A page may come drawn by the server (web/src/serverRender.tsx), inert inside #root: the app's first commit replaces it.
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
