import { type ChatReceiver, startChatReceiver } from "../support/chat-receiver";
import { receiverPath } from "../support/outbound-receiver";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { expect, test } from "./support/fixtures";
import { createForm } from "./support/outbound";

/**
 * A form's chat destinations on its webhooks page, through the real local stack: the test
 * message goes through the queue and the consumer to a local stand-in for Discord in this worker
 * (test/support/chat-receiver.ts), which checks it against what Discord accepts.
 */

let discord: ChatReceiver;
test.beforeAll(async () => {
  discord = await startChatReceiver("discord");
});
test.afterAll(async () => {
  await discord.close();
});

test("add a Discord destination (a wrong URL refused beside its field), send a test message, change its filters", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId } = await createForm(request, account);
  const path = receiverPath("e2e-discord");
  await page.goto(`/forms/${formId}/webhooks`);
  await expect(page.getByRole("heading", { name: "Chat destinations" })).toBeVisible();
  await expect(page.getByText("No chat destinations yet.")).toBeVisible();

  await page.getByRole("button", { name: "Add destination" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a chat destination" });
  await dialog.getByLabel("Platform").selectOption({ label: "Discord" });
  await dialog.getByLabel("Webhook URL").fill("https://discordapp.com/api/webhooks/1/abc");
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog.getByLabel("Webhook URL")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("A Discord destination URL must be on discord.com")).toBeVisible();
  await expectAccessibleInBothThemes(page, "add a chat destination, URL refused");

  await dialog.getByLabel("Webhook URL").fill(discord.url(path));
  await dialog.getByLabel("Name (optional)").fill("#sales");
  await dialog.getByLabel("Send").selectOption({ label: "Hot leads only" });
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("list", { name: "Chat destinations" }).getByRole("listitem", { name: "#sales" });
  await expect(row.getByText("Discord · hot leads only · name, email and up to 10 fields")).toBeVisible();
  // The URL is a secret: shown masked, the path never on the page.
  await expect(row.getByText(`…${path.slice(-4)}`, { exact: false })).toBeVisible();
  expect(await page.content()).not.toContain(path);

  await row.getByRole("button", { name: "Send test message" }).click();
  await expect(row.getByRole("status")).toContainText("Test message sent");
  await discord.waitFor(path, 1);
  expect(discord.problems(path)).toEqual([[]]);
  await expect(row.getByText(/Last delivery: Delivered HTTP 204/)).toBeVisible();
  await expectAccessibleInBothThemes(page, "chat destinations");

  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit #sales" });
  await expect(edit.getByLabel("Platform")).toHaveCount(0);
  await edit.getByLabel("Send").selectOption({ label: "Every lead" });
  await edit.getByLabel("Include the submitter's name, email and field values").uncheck();
  await edit.getByLabel("Status, owner or tags changed").check();
  await edit.getByLabel("New submission").uncheck();
  await expectAccessibleInBothThemes(page, "edit a chat destination");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByText("Discord · every lead · no field values")).toBeVisible();
  await expect(row.getByText("Events: Status, owner or tags changed")).toBeVisible();

  // Its delivery log is the webhooks' log.
  await row.getByRole("link", { name: "Delivery log of #sales" }).click();
  await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Deliveries" }).getByText("Test event")).toBeVisible();
});
