package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class ProcessCpuClockTest {

    @Test
    void usesTheNanosecondClockOnLinuxWithNativeAccess() {
        assumeThat(System.getProperty("os.name")).startsWithIgnoringCase("linux");
        assumeThat(ProcessCpuClock.class.getModule().isNativeAccessEnabled()).isTrue();
        assertThat(ProcessCpuClock.get().source()).isEqualTo(ProcessCpuClock.CLOCK_GETTIME);
    }

    @Test
    void processCpuGrowsAtLeastAsMuchAsThisThreadsCpu() {
        var threads = ManagementFactory.getThreadMXBean();
        ProcessCpuClock clock = ProcessCpuClock.get();
        long processBefore = clock.nanos();
        long threadBefore = threads.getCurrentThreadCpuTime();
        long sink = 0;
        long until = System.nanoTime() + 15_000_000;
        while (System.nanoTime() < until) {
            sink += Long.bitCount(sink ^ System.nanoTime());
        }
        long threadDelta = threads.getCurrentThreadCpuTime() - threadBefore;
        long processDelta = clock.nanos() - processBefore;
        assertThat(sink).isNotNegative();
        assertThat(threadDelta).isPositive();
        if (clock.source().equals(ProcessCpuClock.CLOCK_GETTIME)) {
            assertThat(processDelta).isGreaterThanOrEqualTo(threadDelta);
        } else {
            // the MXBean ticks in 10 ms steps
            assertThat(processDelta).isGreaterThanOrEqualTo(threadDelta - 10_000_000);
        }
    }
}
