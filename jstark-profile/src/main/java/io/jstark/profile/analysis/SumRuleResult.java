package io.jstark.profile.analysis;

import java.util.List;

/**
 * Outcome of the sum-rule self-check: every check made and the ones that failed.
 *
 * @param tolerance relative tolerance, 0.01 for 1%
 * @param slackNanos an absolute gap that never counts as a violation (0 for none)
 */
public record SumRuleResult(double tolerance, long slackNanos, List<SumCheck> checked, List<SumCheck> violations) {

    public SumRuleResult {
        checked = List.copyOf(checked);
        violations = List.copyOf(violations);
    }

    static SumRuleResult of(double tolerance, List<SumCheck> checked) {
        return of(tolerance, 0, checked);
    }

    static SumRuleResult of(double tolerance, long slackNanos, List<SumCheck> checked) {
        return new SumRuleResult(tolerance, slackNanos, checked, checked.stream().filter(c -> !c.holds(tolerance, slackNanos)).toList());
    }

    public boolean passed() {
        return violations.isEmpty();
    }

    /** One line per check, violations marked, for the report's self-check section. */
    public String render() {
        TextTable table = new TextTable(TextTable.Column.left("parent"), TextTable.Column.right("children sum ms"),
                TextTable.Column.right("parent wall ms"), TextTable.Column.right("ratio"),
                TextTable.Column.left("sum rule (" + Fmt.percent(tolerance * 100) + "%)"));
        for (SumCheck check : checked) {
            table.row(check.parent(), Fmt.millis(check.childrenSumNanos()), Fmt.millis(check.parentWallNanos()),
                    String.format(java.util.Locale.ROOT, "%.4f", check.ratio()),
                    check.holds(tolerance, slackNanos) ? "ok" : "VIOLATED");
        }
        return table.render();
    }
}
