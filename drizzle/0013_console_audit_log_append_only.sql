-- Contract 13: nobody can change or delete an audit entry, whatever code or role asks.
CREATE FUNCTION console_audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'console_audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER console_audit_log_no_update_or_delete
  BEFORE UPDATE OR DELETE ON console_audit_log
  FOR EACH ROW EXECUTE FUNCTION console_audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER console_audit_log_no_truncate
  BEFORE TRUNCATE ON console_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION console_audit_log_refuse_change();
