/**
 * The user stories as CSV files the trackers' importers take, one per tracker since each names its columns its own way:
 * - Jira (System > External system import > CSV): `Issue Id`, `Parent Id` (the epic's row, so stories land under
 *   their epic), `Issue Type` (Epic, Story), `Summary`, `Description`, `Priority` (High, Medium, Low), `Story Points`,
 *   `Epic Name` on epic rows;
 * - Linear (Settings > Import > CSV): `Title`, `Description`, `Priority` (High, Medium, Low), `Estimate`, `Labels`
 *   (the type and the epic), `Status`;
 * - GitHub (issue importers and `gh issue create` scripts read the REST API's fields): `title`, `body`, `labels`
 *   (the type, the priority and the epic), `milestone` (the epic).
 * Every description carries the story and its acceptance criteria. Written by csv-stringify (RFC 4180 quoting).
 */
import { stringify } from "csv-stringify/sync";
import { z } from "zod";

const Story = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  story: z.string().optional(),
  acceptance_criteria: z.array(z.unknown()).optional(),
  priority: z.string().optional(),
  story_points: z.number().optional(),
});
const Epic = z.looseObject({ id: z.string().optional(), title: z.string(), description: z.string().optional(), user_stories: z.array(Story) });
const AgileArtifact = z.looseObject({ epics: z.array(Epic) });

export interface BacklogStory {
  id: string;
  summary: string;
  description: string;
  /** High, Medium or Low: the story's MoSCoW priority as the trackers name theirs (Must, Should, Could). */
  priority: string;
  estimate: number | null;
  epic: { id: string; title: string };
}

const PRIORITY: Record<string, string> = { must: "High", should: "Medium", could: "Low", "won't": "Low", wont: "Low" };

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The stories of an agile artifact in order, each with its epic; none when the artifact is not shaped as one. */
export function backlogOf(artifact: unknown): BacklogStory[] {
  const parsed = AgileArtifact.safeParse(artifact);
  if (!parsed.success) return [];
  return parsed.data.epics.flatMap((epic, index) => {
    const epicRef = { id: epic.id ?? `EP-${String(index + 1).padStart(2, "0")}`, title: epic.title };
    return epic.user_stories.map((story) => {
      const criteria = (story.acceptance_criteria ?? []).map(text);
      const description = [story.story ?? "", criteria.length > 0 ? `Acceptance criteria:\n${criteria.map((line) => `- ${line}`).join("\n")}` : ""].filter(Boolean).join("\n\n");
      return {
        id: story.id,
        summary: `${story.id} ${story.title ?? story.story ?? ""}`.trim(),
        description,
        priority: PRIORITY[(story.priority ?? "").toLowerCase()] ?? "Medium",
        estimate: story.story_points ?? null,
        epic: epicRef,
      };
    });
  });
}

const csv = (records: (string | number | null)[][]) => stringify(records, { record_delimiter: "\r\n", quoted_string: false });

export function jiraCsv(stories: readonly BacklogStory[]): string {
  const epics = [...new Map(stories.map((story) => [story.epic.id, story.epic])).values()];
  return csv([
    ["Issue Id", "Parent Id", "Issue Type", "Summary", "Description", "Priority", "Story Points", "Epic Name"],
    ...epics.map((epic) => [epic.id, "", "Epic", epic.title, "", "", null, epic.title]),
    ...stories.map((story) => [story.id, story.epic.id, "Story", story.summary, story.description, story.priority, story.estimate, ""]),
  ]);
}

export function linearCsv(stories: readonly BacklogStory[]): string {
  return csv([
    ["Title", "Description", "Priority", "Estimate", "Labels", "Status"],
    ...stories.map((story) => [story.summary, story.description, story.priority, story.estimate, `User story, ${story.epic.id} ${story.epic.title}`, "Backlog"]),
  ]);
}

export function githubCsv(stories: readonly BacklogStory[]): string {
  return csv([
    ["title", "body", "labels", "milestone"],
    ...stories.map((story) => [
      story.summary,
      `${story.description}${story.estimate !== null ? `\n\nEstimate: ${story.estimate} story points` : ""}`,
      `user story,priority: ${story.priority.toLowerCase()}${story.estimate !== null ? `,estimate: ${story.estimate}` : ""}`,
      `${story.epic.id} ${story.epic.title}`,
    ]),
  ]);
}
