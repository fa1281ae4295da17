/**
 * Counts the words, lines and characters of `document.txt` in the run's working directory (an earlier bash node
 * writes it there) and prints them as one line of JSON, so later nodes can read `$<id>.output.words`.
 * Used by workflows/shell/document-stats.yaml as `script: word-count` with `runtime: bun`; needs no dependencies.
 */
import { readFileSync } from "node:fs";

const text = readFileSync("document.txt", "utf8");
const words = text.split(/\s+/).filter(Boolean).length;
const lines = text === "" ? 0 : text.replace(/\r?\n$/, "").split(/\r?\n/).length;
console.log(JSON.stringify({ words, lines, characters: [...text].length }));
