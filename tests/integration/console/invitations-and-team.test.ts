import { describe, expect, it } from "vitest";
import { acceptInvitation } from "@/lib/console/access/accept-invitation";
import { createInvitation, findOpenInvitation, INVITATION_LIFETIME_MS } from "@/lib/console/access/invitations";
import { listMemberships } from "@/lib/console/access/memberships";
import { changeMemberRole, removeMember } from "@/lib/console/access/team";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { createConsoleUser, fixedClock, serviceIdOf, TEST_PASSWORD, uniqueEmail } from "../../support/console";
import { createMerchant } from "../../support/factories";

describe("invitations", () => {
  it("let a new person join with the role, once", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const email = uniqueEmail("invitee");
    const { token, inviteUrl } = await createInvitation(db, { serviceId, email, role: "support", actor: null });
    expect(inviteUrl).toMatch(/\/console\/invitations\/[A-Za-z0-9_-]{43}$/);
    const joined = await acceptInvitation(db, {
      token,
      name: "Sam Support",
      password: "a long new password",
      ip: null,
    });
    expect(joined).toMatchObject({ outcome: "joined", needsCode: false });
    const again = await acceptInvitation(db, {
      token,
      name: "Someone Else",
      password: "another long password",
      ip: null,
    });
    expect(again).toEqual({ outcome: "not_open" });
  });

  it("stop working after 72 hours", async () => {
    const db = await getDb();
    const serviceId = await serviceIdOf(await createMerchant());
    const clock = fixedClock(new Date());
    const { token } = await createInvitation(db, {
      serviceId,
      email: uniqueEmail(),
      role: "viewer",
      actor: null,
      clock,
    });
    clock.advance(INVITATION_LIFETIME_MS - 1000);
    expect(await findOpenInvitation(db, token, clock)).not.toBeNull();
    clock.advance(2000);
    expect(await findOpenInvitation(db, token, clock)).toBeNull();
    expect(
      await acceptInvitation(db, { token, name: "Late", password: "a long new password", ip: null, clock }),
    ).toEqual({ outcome: "not_open" });
  });

  it("let an account join another merchant with its password: one person, several merchants", async () => {
    const db = await getDb();
    const first = await createMerchant();
    const second = await createMerchant();
    const person = await createConsoleUser([{ merchant: first, role: "owner" }]);
    const { token } = await createInvitation(db, {
      serviceId: await serviceIdOf(second),
      email: person.email,
      role: "developer",
      actor: null,
    });
    expect(await acceptInvitation(db, { token, name: "", password: "not my password", ip: null })).toEqual({
      outcome: "wrong_password",
    });
    expect(await acceptInvitation(db, { token, name: "", password: TEST_PASSWORD, ip: null })).toMatchObject({
      outcome: "joined",
    });
    const memberships = await listMemberships(db, person.id);
    expect(memberships.map((membership) => [membership.merchantName, membership.role]).sort()).toEqual(
      [
        [first.name, "owner"],
        [second.name, "developer"],
      ].sort(),
    );
  });

  it("never demote a last owner: accepting an invitation of its own email as viewer, it stays owner", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const { token } = await createInvitation(db, { serviceId, email: owner.email, role: "viewer", actor: null });
    expect(await acceptInvitation(db, { token, name: "", password: TEST_PASSWORD, ip: null })).toMatchObject({
      outcome: "joined",
    });
    expect((await listMemberships(db, owner.id)).map((membership) => membership.role)).toEqual(["owner"]);
    const second = await createConsoleUser([{ merchant, role: "owner" }]);
    const demoting = await createInvitation(db, { serviceId, email: second.email, role: "support", actor: null });
    expect(
      await acceptInvitation(db, { token: demoting.token, name: "", password: TEST_PASSWORD, ip: null }),
    ).toMatchObject({ outcome: "joined" });
    expect((await listMemberships(db, second.id)).map((membership) => membership.role)).toEqual(["support"]);
  });

  it("refuse a password under 12 characters", async () => {
    const db = await getDb();
    const { token } = await createInvitation(db, {
      serviceId: await serviceIdOf(await createMerchant()),
      email: uniqueEmail(),
      role: "viewer",
      actor: null,
    });
    expect(await acceptInvitation(db, { token, name: "Val", password: "too short", ip: null })).toEqual({
      outcome: "invalid_password",
      problem: "too_short",
    });
    expect(await findOpenInvitation(db, token)).not.toBeNull();
  });
});

describe("the team", () => {
  it("always keeps one owner: the last owner can be neither demoted nor removed", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const actor = { userId: owner.id, email: owner.email, ip: null };
    expect(await changeMemberRole(db, { actor, serviceId, userId: owner.id, role: "developer" })).toEqual({
      outcome: "last_owner",
    });
    expect(await removeMember(db, { actor, serviceId, userId: owner.id })).toEqual({ outcome: "last_owner" });
    const second = await createConsoleUser([{ merchant, role: "viewer" }]);
    expect(await changeMemberRole(db, { actor, serviceId, userId: second.id, role: "owner" })).toEqual({
      outcome: "done",
    });
    expect(await changeMemberRole(db, { actor, serviceId, userId: owner.id, role: "viewer" })).toEqual({
      outcome: "done",
    });
    expect(await removeMember(db, { actor, serviceId, userId: second.id })).toEqual({ outcome: "last_owner" });
  });

  it("keeps an owner when two owners demote each other at the same time", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const a = await createConsoleUser([{ merchant, role: "owner" }]);
    const b = await createConsoleUser([{ merchant, role: "owner" }]);
    const results = await Promise.all([
      changeMemberRole(db, {
        actor: { userId: a.id, email: a.email, ip: null },
        serviceId,
        userId: b.id,
        role: "viewer",
      }),
      changeMemberRole(db, {
        actor: { userId: b.id, email: b.email, ip: null },
        serviceId,
        userId: a.id,
        role: "viewer",
      }),
    ]);
    expect(results.map((result) => result.outcome).sort()).toEqual(["done", "last_owner"]);
  });

  it("does not find another merchant's member", async () => {
    const db = await getDb();
    const mine = await createMerchant();
    const theirs = await createMerchant();
    const owner = await createConsoleUser([{ merchant: mine, role: "owner" }]);
    const stranger = await createConsoleUser([{ merchant: theirs, role: "viewer" }]);
    const actor = { userId: owner.id, email: owner.email, ip: null };
    await expect(
      changeMemberRole(db, { actor, serviceId: await serviceIdOf(mine), userId: stranger.id, role: "owner" }),
    ).rejects.toBeInstanceOf(ApiError);
  });

  it("withdraws the open invitations a removed owner sent and those to a removed member; nobody joins", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const leaving = await createConsoleUser([{ merchant, role: "owner" }]);
    const ownerActor = { userId: owner.id, email: owner.email, ip: null };
    const fromLeaving = await createInvitation(db, {
      serviceId,
      email: uniqueEmail("second-address"),
      role: "owner",
      actor: { userId: leaving.id, email: leaving.email, ip: null },
    });
    const toLeaving = await createInvitation(db, { serviceId, email: leaving.email, role: "owner", actor: ownerActor });
    const fromOwner = await createInvitation(db, {
      serviceId,
      email: uniqueEmail("newcomer"),
      role: "viewer",
      actor: ownerActor,
    });
    expect(await removeMember(db, { actor: ownerActor, serviceId, userId: leaving.id })).toEqual({ outcome: "done" });
    expect(
      await acceptInvitation(db, {
        token: fromLeaving.token,
        name: "Second Address",
        password: "a long new password",
        ip: null,
      }),
    ).toEqual({ outcome: "not_open" });
    expect(await acceptInvitation(db, { token: toLeaving.token, name: "", password: TEST_PASSWORD, ip: null })).toEqual(
      { outcome: "not_open" },
    );
    expect((await listMemberships(db, leaving.id)).map((membership) => membership.merchantName)).not.toContain(
      merchant.name,
    );
    expect(await findOpenInvitation(db, fromOwner.token)).not.toBeNull();
  });

  it("withdraws the open invitations of an owner demoted below owner", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const demoted = await createConsoleUser([{ merchant, role: "owner" }]);
    const sent = await createInvitation(db, {
      serviceId,
      email: uniqueEmail("second-address"),
      role: "owner",
      actor: { userId: demoted.id, email: demoted.email, ip: null },
    });
    const actor = { userId: owner.id, email: owner.email, ip: null };
    expect(await changeMemberRole(db, { actor, serviceId, userId: demoted.id, role: "viewer" })).toEqual({
      outcome: "done",
    });
    expect(await findOpenInvitation(db, sent.token)).toBeNull();
  });
});
