package io.jstark.profile.analysis;

import java.util.List;

/** Outcome of the sum-rule self-check: every check made and the ones that failed. */
public record SumRuleResult(List<SumCheck> checked, List<SumCheck> violations) {
    /** What a result that checked nothing says. */
    public static final String NOTHING_CHECKED =
            "sum rule: nothing checked: no span was split into phases (a timeline recorded"
                    + " before phases shared their boundaries, format 1, or not recorded by a phase sequence)";

    public SumRuleResult {
        checked = List.copyOf(checked);
        violations = List.copyOf(violations);
    }

    static SumRuleResult of(List<SumCheck> checked) {
        return new SumRuleResult(
                checked, checked.stream().filter(c -> !c.holds()).toList());
    }

    /** Whether something was checked and every check held: checking nothing is no pass. */
    public boolean passed() {
        return !checked.isEmpty() && violations.isEmpty();
    }

    /** One line per check, violations marked, for the report's self-check section. */
    public String render() {
        if (checked.isEmpty()) {
            return NOTHING_CHECKED + "\n";
        }
        TextTable table = new TextTable(
                TextTable.Column.left("parent"),
                TextTable.Column.right("children sum ms"),
                TextTable.Column.right("parent wall ms"),
                TextTable.Column.right("children - parent ns"),
                TextTable.Column.left("sum rule (exact)"));
        for (SumCheck check : checked) {
            table.row(
                    check.parent(),
                    Fmt.millis(check.childrenSumNanos()),
                    Fmt.millis(check.parentWallNanos()),
                    check.differenceNanos(),
                    check.holds() ? "ok" : "VIOLATED");
        }
        return table.render();
    }
}
