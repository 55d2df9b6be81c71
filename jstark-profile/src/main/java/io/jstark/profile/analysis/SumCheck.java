package io.jstark.profile.analysis;

import java.util.List;

/**
 * One application of the sum rule: a parent (a path, or one span) against its direct children.
 *
 * @param parent           the parent path, or {@code "<path> #<id>"} for a single span
 * @param children         the child labels or paths whose walls were summed
 * @param childrenSumNanos sum of the children's walls (each child the union of its instances)
 * @param parentWallNanos  the parent's wall
 */
public record SumCheck(String parent, List<String> children, long childrenSumNanos, long parentWallNanos) {

    public SumCheck {
        children = List.copyOf(children);
    }

    /** childrenSum / parentWall; 1 when both are 0, infinite when only the parent is 0. */
    public double ratio() {
        if (parentWallNanos == 0) {
            return childrenSumNanos == 0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return (double) childrenSumNanos / parentWallNanos;
    }

    /** Whether the children sum to the parent within {@code tolerance} (0.01 for 1%). */
    public boolean holds(double tolerance) {
        return holds(tolerance, 0);
    }

    /**
     * Whether the children sum to the parent within {@code tolerance} of the parent's wall, or within
     * {@code slackNanos}, whichever is larger.
     */
    public boolean holds(double tolerance, long slackNanos) {
        if (Math.abs(childrenSumNanos - parentWallNanos) <= slackNanos) {
            return true;
        }
        return Math.abs(ratio() - 1.0) <= tolerance;
    }
}
