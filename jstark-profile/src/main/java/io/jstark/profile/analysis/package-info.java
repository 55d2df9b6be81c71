/**
 * Pure functions over one or several runs' span records (no I/O), which the timing report and the profiling
 * tools print. The honesty rules they implement:
 * <ul>
 *   <li>wall = length of the union of a group's intervals, busy = sum of durations, concurrency = busy / wall,
 *       always separate columns ({@link io.jstark.profile.analysis.Aggregate});</li>
 *   <li>percent of total = the part of the wall inside the root's wall / the root's wall: never above 100% by
 *       construction, and checked;</li>
 *   <li>the sum rule (children's walls sum to their phase within 1%) is checked and its violations listed
 *       ({@link io.jstark.profile.analysis.SumRule});</li>
 *   <li>no phase label has overlapping instances, every parent exists and encloses its children
 *       ({@link io.jstark.profile.analysis.TimelineChecks});</li>
 *   <li>unknown values print as {@code -}, never as 0; CPU sums over spans are labelled thread-CPU sums.</li>
 * </ul>
 * Views: {@link io.jstark.profile.analysis.LabelStats}, {@link io.jstark.profile.analysis.PathStats},
 * {@link io.jstark.profile.analysis.PhaseTable} (several runs), {@link io.jstark.profile.analysis.InstancesView},
 * {@link io.jstark.profile.analysis.BusyView}, rendered with {@link io.jstark.profile.analysis.TextTable}.
 */
package io.jstark.profile.analysis;
