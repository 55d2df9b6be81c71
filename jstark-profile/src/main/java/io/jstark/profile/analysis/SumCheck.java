package io.jstark.profile.analysis;

import java.util.List;

/**
 * One application of the sum rule: a span split into phases against the phases and instrumentation spans that
 * tile it.
 *
 * @param parent           the parent's path, with {@code #<id>} when its path has several instances
 * @param children         the child labels whose walls were summed
 * @param childrenSumNanos sum of the children's walls (each label the union of its instances)
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

    /** Children minus parent: negative for wall in no child, positive for children that overlap. */
    public long differenceNanos() {
        return childrenSumNanos - parentWallNanos;
    }

    /** Whether the children sum to the parent to the nanosecond, as shared boundaries make them. */
    public boolean holds() {
        return childrenSumNanos == parentWallNanos;
    }
}
