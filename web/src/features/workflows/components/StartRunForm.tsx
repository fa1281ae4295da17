/** "Start run": a message for the run ($ARGUMENTS and $USER_MESSAGE in the nodes), then the run's conversation. */
import { type FormEvent, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SendIcon } from "../../../components/icons";
import { SubmitButton } from "../../../components/SubmitButton";
import { navigate, paths } from "../../../lib/router";
import { useStartWorkflowRun } from "../api/workflows";

export function StartRunForm({ name, version }: { name: string; version: number }) {
  const [message, setMessage] = useState("");
  const start = useStartWorkflowRun();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    start.mutate({ name, message: message.trim() }, { onSuccess: (run) => navigate(paths.workflows.run(run.id)) });
  };

  return (
    <form className="composer start-run" onSubmit={submit} aria-labelledby="start-run-title" aria-busy={start.isPending} noValidate>
      <h2 id="start-run-title" className="section-title">
        Start a run of v{version}
      </h2>
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
      <div className="composer-actions">
        <SubmitButton pending={start.isPending} icon={<SendIcon />}>
          Start run
        </SubmitButton>
      </div>
    </form>
  );
}
