-- Issue 15: credit Steam takes back after the studio settled it with the operator takes the
-- link's outstanding below zero (outstanding == issued - reversed - settled: the studio has paid
-- for credit it no longer owes). The guards that still hold: nothing reserved, limited, issued
-- or reversed is negative; no more is reversed than was issued; and outstanding sinks at most by
-- what was reversed (settlements never exceed the outstanding, so settled <= issued).
ALTER TABLE "distributor_links" DROP CONSTRAINT "distributor_links_amounts_check";
ALTER TABLE "distributor_links" ADD CONSTRAINT "distributor_links_amounts_check"
  CHECK ("reserved_nanos" >= 0 AND "outstanding_limit_nanos" >= 0
         AND "issued_nanos" >= 0 AND "reversed_nanos" >= 0 AND "reversed_nanos" <= "issued_nanos"
         AND "outstanding_nanos" + "reversed_nanos" >= 0);
