package io.jstark.instrument;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * CPU time consumed by the whole process (every thread, GC and JIT included), in nanoseconds.
 *
 * <p>{@code OperatingSystemMXBean.getProcessCpuTime} reads {@code times(2)} on Linux, which ticks in 10 ms
 * steps: useless for phases of a few tens of milliseconds. On 64-bit Linux, when native access is enabled for
 * this code ({@code --enable-native-access}), the clock calls {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)}
 * instead, which is exact to the nanosecond. Elsewhere it falls back to the MXBean, and {@link #source()} says
 * which one is in use so that reports can state the resolution. Benchmarks use it too: on a shared machine the
 * CPU time a proof consumes varies less than its wall time.
 */
public final class ProcessCpuClock {
    public static final String CLOCK_GETTIME = "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)";
    public static final String MX_BEAN = "OperatingSystemMXBean.getProcessCpuTime";
    public static final String UNAVAILABLE = "unavailable";

    private static final int CLOCK_PROCESS_CPUTIME_ID = 2;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final ProcessCpuClock INSTANCE = create();

    private final String source;
    private final MethodHandle clockGettime;
    private final ThreadLocal<MemorySegment> timespec;
    private final com.sun.management.OperatingSystemMXBean osBean;

    private ProcessCpuClock(String source, MethodHandle clockGettime, com.sun.management.OperatingSystemMXBean osBean) {
        this.source = source;
        this.clockGettime = clockGettime;
        this.timespec = clockGettime == null
                ? null
                : ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(2 * Long.BYTES, Long.BYTES));
        this.osBean = osBean;
    }

    /** The process-wide clock. */
    public static ProcessCpuClock get() {
        return INSTANCE;
    }

    /** Which clock answers: one of {@link #CLOCK_GETTIME}, {@link #MX_BEAN}, {@link #UNAVAILABLE}. */
    public String source() {
        return source;
    }

    /** Process CPU time in nanoseconds, or -1 when no clock is available. */
    public long nanos() {
        if (clockGettime != null) {
            MemorySegment ts = timespec.get();
            try {
                int rc = (int) clockGettime.invokeExact(CLOCK_PROCESS_CPUTIME_ID, ts);
                if (rc == 0) {
                    return ts.get(ValueLayout.JAVA_LONG, 0) * NANOS_PER_SECOND + ts.get(ValueLayout.JAVA_LONG, 8);
                }
            } catch (Throwable e) {
                // a failing native call must not break a span; fall through to the MXBean
            }
        }
        return osBean == null ? -1 : osBean.getProcessCpuTime();
    }

    private static ProcessCpuClock create() {
        com.sun.management.OperatingSystemMXBean bean =
                ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean b
                        ? b
                        : null;
        MethodHandle handle = linuxClockGettime();
        if (handle != null) {
            return new ProcessCpuClock(CLOCK_GETTIME, handle, bean);
        }
        return new ProcessCpuClock(bean == null ? UNAVAILABLE : MX_BEAN, null, bean);
    }

    /** The {@code clock_gettime} downcall, or null when not on 64-bit Linux or native access is not enabled. */
    @SuppressWarnings("restricted") // guarded by isNativeAccessEnabled: never warns at run time
    private static MethodHandle linuxClockGettime() {
        boolean linux =
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
        // struct timespec is two 64-bit longs only where pointers (and time_t) are 64 bits wide
        boolean sixtyFourBit = ValueLayout.ADDRESS.byteSize() == Long.BYTES;
        if (!linux || !sixtyFourBit || !ProcessCpuClock.class.getModule().isNativeAccessEnabled()) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle handle = linker.defaultLookup()
                    .find("clock_gettime")
                    .map(symbol -> linker.downcallHandle(
                            symbol,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
            if (handle == null) {
                return null;
            }
            try (Arena arena = Arena.ofConfined()) {
                int rc = (int) handle.invokeExact(CLOCK_PROCESS_CPUTIME_ID, arena.allocate(2 * Long.BYTES, Long.BYTES));
                return rc == 0 ? handle : null;
            }
        } catch (Throwable e) {
            return null;
        }
    }
}
