/** "Start run": a message for the run ($ARGUMENTS and $USER_MESSAGE in the nodes), then the run's conversation. */
import { useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { StartRunForm as StartForm } from "../../../components/StartRunForm";
import { navigate, paths } from "../../../lib/router";
import { useStartWorkflowRun } from "../api/workflows";

export function StartRunForm({ name, version }: { name: string; version: number }) {
  const [message, setMessage] = useState("");
  const start = useStartWorkflowRun();
  const onStart = () => start.mutate({ name, message: message.trim() }, { onSuccess: (run) => navigate(paths.workflows.run(run.id)) });

  return (
    <StartForm className="start-run" version={version} pending={start.isPending} onStart={onStart}>
      <Field
        label="Message"
        multiline
        rows={3}
        value={message}
        placeholder="What should this run work on?"
        hint="The nodes read it as $ARGUMENTS (or $USER_MESSAGE)."
        disabled={start.isPending}
        onChange={(event) => setMessage(event.target.value)}
      />
      {start.error && !start.isPending ? <ErrorNotice title="The run was not started" error={start.error} /> : null}
    </StartForm>
  );
}
