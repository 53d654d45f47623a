CREATE TABLE "simulators"."card_simulator_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
