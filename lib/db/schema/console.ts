import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { services } from "./merchants";

/** Contract 13: each membership has one role. */
export const consoleRole = pgEnum("console_role", ["owner", "developer", "support", "viewer"]);

/** A person who signs in to the console; one person may belong to several merchants. */
export const consoleUsers = pgTable("console_users", {
  id: uuid("id").primaryKey().defaultRandom(),
  // Stored lower-cased: one person, one email, whatever its case when typed.
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  // scrypt (memory-hard), lib/console/access/passwords.ts.
  passwordHash: text("password_hash").notNull(),
  // AES-GCM under the gateway key: TOTP needs the secret itself, a hash cannot serve.
  totpSecretEncrypted: text("totp_secret_encrypted"),
  // Set while a user is setting two-step up and has not yet proved a code.
  totpPendingSecretEncrypted: text("totp_pending_secret_encrypted"),
  // The newest 30-second step accepted: a code of that step or older is refused (RFC 6238 5.2).
  totpLastUsedStep: bigint("totp_last_used_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const consoleRecoveryCodes = pgTable(
  "console_recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("console_recovery_codes_user_idx").on(table.userId)],
);

export const consoleSessions = pgTable(
  "console_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // SHA-256 of the cookie's token: a copy of the table opens no session.
    tokenHash: text("token_hash").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    // "code" until the second step is passed, when two-step verification is on.
    stage: text("stage", { enum: ["code", "active"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    activeServiceId: uuid("active_service_id").references(() => services.id),
    // A value shown once on the next page (a new secret, recovery codes, a form's error), sealed under the gateway key.
    flashSealed: text("flash_sealed"),
  },
  (table) => [index("console_sessions_user_idx").on(table.userId)],
);

export const consoleMemberships = pgTable(
  "console_memberships",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    role: consoleRole("role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.serviceId] }),
    index("console_memberships_service_idx").on(table.serviceId),
  ],
);

export const consoleInvitations = pgTable(
  "console_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    email: text("email").notNull(),
    role: consoleRole("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: uuid("invited_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  },
  (table) => [index("console_invitations_service_idx").on(table.serviceId)],
);

/** Failed sign-ins per email (existing or not), for the 10-in-15-minutes lockout. */
export const consoleSignInFailures = pgTable(
  "console_sign_in_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("console_sign_in_failures_email_idx").on(table.email, table.failedAt)],
);

/** Per merchant: an owner may require two-step verification of every member. */
export const consoleMerchantPolicies = pgTable("console_merchant_policies", {
  serviceId: uuid("service_id")
    .primaryKey()
    .references(() => services.id),
  requiresTwoStep: boolean("requires_two_step").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

/**
 * A password reset link (contract 13): works once, for one hour. Only the token's SHA-256 is
 * kept, so a copy of the table opens nothing. Made by "Forgot password?" (emailed), by an owner
 * on the Team page (`createdBy`) or by the operator's CLI.
 */
export const consolePasswordResets = pgTable(
  "console_password_resets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: uuid("created_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("console_password_resets_user_idx").on(table.userId)],
);

/** "Forgot password?" requests per email (existing or not): limited as sign-ins are (10 in 15 minutes). */
export const consolePasswordResetRequests = pgTable(
  "console_password_reset_requests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("console_password_reset_requests_email_idx").on(table.email, table.requestedAt)],
);
