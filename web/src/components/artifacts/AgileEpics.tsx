/** The agile agent's epics, each with its user stories written as "As a … I want … so that …". */
import { isPlainObject, omit, pick, pickKey, pickString, type Plain } from "./shape";
import { DataView, MetaList, Prose } from "./DataView";
import { PartButton, PartThreads, fieldAnchor, useItemAnchors } from "./parts";

const storyKeys = ["id", "story_id", "title", "name", "as_a", "role", "i_want", "want", "goal", "so_that", "benefit", "description", "story", "user_story",
  "acceptance_criteria", "criteria", "priority", "story_points", "points", "estimate"];

/** "customer" -> "a customer"; "an admin" and "As a buyer" keep their own wording. */
function withArticle(role: string): string {
  const trimmed = role.trim().replace(/^as\s+/i, "");
  if (/^(a|an|the)\s/i.test(trimmed)) return trimmed;
  // "an admin", "an editor", but "a user": a leading "u" that sounds like "you" takes "a".
  return `${/^(?:[aeio]|u(?!s|ni|ti))/i.test(trimmed) ? "an" : "a"} ${trimmed}`;
}

function UserStory({ story, anchor }: { story: Plain; anchor: string | undefined }) {
  const id = pickString(story, "id", "story_id");
  const title = pickString(story, "title", "name");
  const asA = pickString(story, "as_a", "role");
  const iWant = pickString(story, "i_want", "want", "goal");
  const soThat = pickString(story, "so_that", "benefit");
  const text = pickString(story, "description", "story", "user_story");
  const criteria = pick(story, "acceptance_criteria", "criteria");
  const priority = pickString(story, "priority");
  const points = pickString(story, "story_points", "points", "estimate");
  const rest = omit(story, storyKeys);
  return (
    <li className="story">
      <div className="story-head">
        {id ? <code className="id-chip">{id}</code> : null}
        {title ? <span className="story-title">{title}</span> : null}
        <span className="story-tags">
          {priority ? <span className="tag">Priority: {priority}</span> : null}
          {points ? <span className="tag">{points} pts</span> : null}
        </span>
        <PartButton anchor={anchor} />
      </div>
      {asA || iWant || soThat ? (
        <p className="story-text">
          {asA ? <><em>As</em> {withArticle(asA)}{iWant || soThat ? ", " : ""}</> : null}
          {iWant ? <><em>I want</em> {iWant}{soThat ? ", " : ""}</> : null}
          {soThat ? <><em>so that</em> {soThat}</> : null}
        </p>
      ) : null}
      {/* The agent's own sentence only when the parts above did not already say it. */}
      {text && !(asA || iWant) ? <Prose text={text} /> : null}
      {criteria !== undefined ? (
        <div className="story-criteria">
          <span className="mini-label">Acceptance criteria</span>
          <DataView value={criteria} label="Acceptance criteria" />
        </div>
      ) : null}
      {Object.keys(rest).length > 0 ? <MetaList record={rest} /> : null}
      <PartThreads anchor={anchor} />
    </li>
  );
}

const storiesKeys = ["user_stories", "stories", "historias", "historias_usuario"];

function Epic({ epic, index, anchor }: { epic: Plain; index: number; anchor: string | undefined }) {
  const storiesKey = pickKey(epic, ...storiesKeys);
  const storyAnchors = useItemAnchors(storiesKey ? fieldAnchor(anchor, storiesKey) : undefined);
  const id = pickString(epic, "id", "epic_id");
  const title = pickString(epic, "title", "name");
  const description = pickString(epic, "description", "goal", "summary");
  const stories = pick(epic, ...storiesKeys);
  const rest = omit(epic, ["id", "epic_id", "title", "name", "description", "goal", "summary", ...storiesKeys]);
  const storyList = Array.isArray(stories) ? stories : [];
  return (
    <li className="epic sub-card">
      <div className="epic-head">
        {id ? <code className="id-chip">{id}</code> : null}
        <span className="epic-title">{title ?? `Epic ${index + 1}`}</span>
        <span className="muted small">{storyList.length} {storyList.length === 1 ? "story" : "stories"}</span>
        <PartButton anchor={anchor} />
      </div>
      <PartThreads anchor={anchor} />
      {description ? <Prose text={description} /> : null}
      {Object.keys(rest).length > 0 ? <MetaList record={rest} /> : null}
      {storyList.length > 0 ? (
        <ol className="card-list stories">
          {storyList.map((story, j) =>
            isPlainObject(story) ? (
              <UserStory key={pickString(story, "id", "story_id") ?? j} story={story} anchor={storyAnchors[j]} />
            ) : (
              <li key={j} className="story">
                <DataView value={story} />
              </li>
            ),
          )}
        </ol>
      ) : stories !== undefined ? <DataView value={stories} /> : null}
    </li>
  );
}

/** `anchor`: the epics' address while they are under review, so each epic and story carries its comment button. */
export function AgileEpics({ value, anchor }: { value: unknown; anchor?: string }) {
  const anchors = useItemAnchors(anchor);
  if (!Array.isArray(value) || !value.every(isPlainObject)) return <DataView value={value} label="Epics" anchor={anchor} />;
  return (
    <ol className="card-list epics">
      {value.map((epic, i) => <Epic key={pickString(epic, "id", "epic_id") ?? i} epic={epic} index={i} anchor={anchors[i]} />)}
    </ol>
  );
}
