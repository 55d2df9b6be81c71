package io.jstark.profile.analysis;

/**
 * Utilisation of a phase: its process CPU time over its wall time times the cores, the share of the machine the
 * process used during the phase. The recorder reads a phase's CPU clock inside its wall window, so the CPU it
 * reports cannot include work before or after the phase; what can still push a figure above 100% is the clock
 * itself: Linux adds the CPU time of a thread that is running on another core to the process clock only at that
 * thread's next scheduler tick or context switch (1 to 10 ms, by kernel), so a window of a few milliseconds can be
 * credited with CPU spent just before it opened. (The same happens where the JVM's core count is a container's CPU
 * quota below the CPUs the process runs on.) Such a figure is not a measurement of the phase: it is shown as
 * unresolved ({@code -}, with the reason) rather than as a percentage above 100 or a clamped 100.
 */
public final class Utilisation {
    /** Why a utilisation is shown as {@code -}: printed once under any table that has such a row. */
    public static final String UNRESOLVED_NOTE =
            "utilisation -: the process CPU clock gave the phase more CPU than wall x cores, which"
                    + " only the clock can do: Linux adds a thread running on another core to the process clock at its next scheduler"
                    + " tick (1-10 ms), so a window this short is credited with CPU spent just before it (or the core count is a"
                    + " container quota below the CPUs in use)";

    private Utilisation() {}

    /** cpu / (wall x cores), in percent: at most 100; NaN when unknown or {@link #unresolved}. */
    public static double percent(long cpuNanos, long wallNanos, int cores) {
        if (cpuNanos < 0 || wallNanos <= 0 || cores <= 0 || unresolved(cpuNanos, wallNanos, cores)) {
            return Double.NaN;
        }
        return 100.0 * cpuNanos / ((double) wallNanos * cores);
    }

    /** Whether the measured CPU exceeds wall x cores: the clock's lag, not a figure of the phase. */
    public static boolean unresolved(long cpuNanos, long wallNanos, int cores) {
        return cpuNanos >= 0 && wallNanos >= 0 && cores > 0 && (double) cpuNanos > (double) wallNanos * cores;
    }
}
