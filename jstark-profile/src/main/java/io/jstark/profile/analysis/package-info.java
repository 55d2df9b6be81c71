/**
 * Pure functions over one or several runs' span records (no I/O), which the timing report and the profiling
 * tools print. The honesty rules they implement:
 * <ul>
 *   <li>wall = length of the union of a group's intervals, summed span time = sum of durations over threads
 *       (waiting included, not CPU), concurrency = summed / wall, always separate columns
 *       ({@link io.jstark.profile.analysis.Aggregate}); real CPU is the process's, read inside each phase's wall
 *       window, and utilisation = CPU / (wall x cores) never exceeds 100
 *       ({@link io.jstark.profile.analysis.Utilisation});</li>
 *   <li>percent of total = the part of the wall inside the root's wall / the root's wall: never above 100% by
 *       construction, and checked;</li>
 *   <li>the sum rule (a span split into phases is tiled by them and the instrumentation between them, to the
 *       nanosecond) is checked and its violations listed ({@link io.jstark.profile.analysis.SumRule});</li>
 *   <li>no phase label has overlapping instances, no two phases of one parent overlap, every parent exists and
 *       encloses its children ({@link io.jstark.profile.analysis.TimelineChecks});</li>
 *   <li>unknown values print as {@code -}, never as 0.</li>
 * </ul>
 * Views: {@link io.jstark.profile.analysis.PathStats},
 * {@link io.jstark.profile.analysis.PhaseTable} (several runs), {@link io.jstark.profile.analysis.InstancesView},
 * {@link io.jstark.profile.analysis.UtilisationView}, rendered with {@link io.jstark.profile.analysis.TextTable}.
 */
package io.jstark.profile.analysis;
