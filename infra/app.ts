import { App, Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { addSignInFirewall } from "./sign-in-firewall";
import { InletStack } from "./stack";
import { ensureWebBuild } from "./web-build";

const app = new App();
// Every resource is checked against the AWS Solutions rule pack; an unsuppressed finding fails
// synth. Suppressions sit next to the resource they concern, each with its reason.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));

// Environment-agnostic: deploys to the account and region of the credentials `cdk deploy` uses.
new InletStack(app, "Inlet", {
  description: "Inlet: form intake service (dashboard and HTTP API behind CloudFront, functions, table, intake queue)",
  // Builds the dashboard first when web/dist is missing or older than web/'s sources.
  webDist: ensureWebBuild(),
});

// Only with -c signInRateLimit=<n>: the optional per-address limit on signup and login, a web
// ACL that CloudFront requires in us-east-1, deployed on its own (docs/deployment.md, "Sign-in firewall").
addSignInFirewall(app);

app.synth();
