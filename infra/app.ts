import { App, Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { InletStack } from "./stack";

const app = new App();
// Every resource is checked against the AWS Solutions rule pack; an unsuppressed finding fails
// synth. Suppressions sit next to the resource they concern, each with its reason.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));

// Environment-agnostic: deploys to the account and region of the credentials `cdk deploy` uses.
new InletStack(app, "Inlet", {
  description: "Inlet: form intake service (HTTP API, functions, table, intake queue)",
});

app.synth();
