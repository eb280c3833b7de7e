import { ROUTES } from "../../../functions/routes";
import { ROUTE_FAMILY_THROTTLES, throttleFamily } from "../../../infra/http-api";
import { loadApp, type Resource, synth } from "./support";

/** Route families are throttled apart, so a flood on one cannot starve the others (docs/deployment.md, "Throttling"). */

const stageOf = (resources: Record<string, Resource>) =>
  Object.entries(resources).find(([, r]) => r.Type === "AWS::ApiGatewayV2::Stage") as [string, Resource];

describe("throttling by route family", () => {
  let resources: Record<string, Resource>;
  beforeAll(() => {
    ({ resources } = loadApp());
  });

  test("every route of the table has its family's limits; the families are intake, authentication and management", () => {
    const [, stage] = stageOf(resources);
    const settings = stage.Properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    expect(Object.keys(settings).sort()).toEqual(ROUTES.map((r) => r.route).sort());
    const families = new Set<string>();
    for (const route of ROUTES) {
      const family = throttleFamily(route.route);
      families.add(family);
      expect([route.route, settings[route.route]]).toEqual([
        route.route,
        {
          ThrottlingRateLimit: ROUTE_FAMILY_THROTTLES[family].rateLimit,
          ThrottlingBurstLimit: ROUTE_FAMILY_THROTTLES[family].burstLimit,
        },
      ]);
    }
    expect([...families].sort()).toEqual(["auth", "intake", "management"]);
    expect(throttleFamily("POST /api/v1/incoming/{webhookId}")).toBe("intake");
    expect(throttleFamily("POST /api/v1/auth/login")).toBe("auth");
    expect(throttleFamily("GET /api/v1/sites")).toBe("management");
    expect(throttleFamily("$default")).toBe("management");
    // Apart, not shared: a flood of one family cannot use up another's.
    const limits = Object.values(ROUTE_FAMILY_THROTTLES).map((l) => `${l.rateLimit}/${l.burstLimit}`);
    expect(new Set(limits).size).toBe(3);
  });

  test("the stage is created after the nested stacks that create its routes", () => {
    const [, stage] = stageOf(resources);
    const nested = Object.entries(resources)
      // The route stacks (the bookkeeper's and the digest run's nested stacks create no route).
      .filter(([id, r]) => r.Type === "AWS::CloudFormation::Stack" && id.startsWith("HttpRoutes"))
      .map(([id]) => id);
    expect(nested.length).toBeGreaterThan(5);
    expect((stage as Resource & { DependsOn?: string[] }).DependsOn).toEqual(expect.arrayContaining(nested));
  });

  test("an operator sets a family's limits with context <family>Throttle=<rate>/<burst>; a malformed value fails synth", () => {
    const { resources: custom } = synth({ intakeThrottle: "500/1000", authThrottle: " 5 / 10 " });
    const settings = stageOf(custom)[1].Properties.RouteSettings;
    expect(settings["POST /api/v1/incoming/{webhookId}"]).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    expect(settings["POST /api/v1/auth/login"]).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 });
    expect(settings["GET /api/v1/sites"]).toEqual({
      ThrottlingRateLimit: ROUTE_FAMILY_THROTTLES.management.rateLimit,
      ThrottlingBurstLimit: ROUTE_FAMILY_THROTTLES.management.burstLimit,
    });
    for (const bad of ["500", "0/10", "abc/def", "10/100000"]) {
      expect(() => synth({ managementThrottle: bad })).toThrow(/managementThrottle.*<rate>\/<burst>/);
    }
  });
});
