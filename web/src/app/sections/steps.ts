/** The JSON step workflows' pages: loaded when one is first opened (web/src/app/routes.tsx). */
export { NewStepWorkflowPage } from "../../features/step-workflows/components/NewStepWorkflowPage";
export { StepRunView } from "../../features/step-workflows/components/StepRunView";
export { StepWorkflowList } from "../../features/step-workflows/components/StepWorkflowList";
export { StepWorkflowPage } from "../../features/step-workflows/components/StepWorkflowPage";
