package io.jstark.instrument;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's resident memory as the kernel counts it, from {@code /proc/self/status} (Linux):
 * anonymous pages ({@code RssAnon}: heap, off-heap buffers, the JVM's own memory; what the kernel cannot
 * reclaim without swap, and what a memory cgroup kills for) and file-backed pages ({@code RssFile}: mapped
 * spill files and the JVM's own files; reclaimable). Elsewhere both are "not available" (-1).
 */
public final class ResidentMemory {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final boolean AVAILABLE = Files.isReadable(STATUS);

    /**
     * One reading, in bytes; -1 for a figure that is not available.
     *
     * @param anonymous RssAnon
     * @param file RssFile
     */
    public record Reading(long anonymous, long file) {
        public static final Reading UNAVAILABLE = new Reading(-1, -1);

        public boolean available() {
            return anonymous >= 0;
        }
    }

    private ResidentMemory() {}

    /** Whether this system reports resident memory (Linux's /proc). */
    public static boolean available() {
        return AVAILABLE;
    }

    /** The figures now; {@link Reading#UNAVAILABLE} where the system does not report them. */
    public static Reading read() {
        if (!AVAILABLE) {
            return Reading.UNAVAILABLE;
        }
        try {
            return parse(new String(Files.readAllBytes(STATUS), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return Reading.UNAVAILABLE;
        }
    }

    /**
     * {@return the kernel's high-water mark of this process's resident memory ({@code VmHWM}: anonymous and file-backed
     * pages, the most at any moment since the process started, not sampled) in bytes; -1 where not available}
     */
    public static long highWaterMark() {
        if (!AVAILABLE) {
            return -1;
        }
        try {
            return kilobytes(new String(Files.readAllBytes(STATUS), StandardCharsets.US_ASCII), "VmHWM:");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The figures of a {@code /proc/PID/status} text (kB values); -1 for a missing line. */
    static Reading parse(String status) {
        return new Reading(kilobytes(status, "RssAnon:"), kilobytes(status, "RssFile:"));
    }

    private static long kilobytes(String status, String key) {
        int at = status.indexOf(key);
        if (at < 0) {
            return -1;
        }
        int i = at + key.length();
        while (i < status.length() && (status.charAt(i) == ' ' || status.charAt(i) == '\t')) {
            i++;
        }
        long value = 0;
        boolean digits = false;
        while (i < status.length() && Character.isDigit(status.charAt(i))) {
            value = value * 10 + (status.charAt(i) - '0');
            digits = true;
            i++;
        }
        return digits ? value * 1024 : -1;
    }

    /**
     * Samples the figures on a daemon thread every {@code periodMillis} and keeps their peaks since the last
     * {@link #takePeaks()}: the peak of a phase, not just its boundaries. Close it to stop the thread.
     */
    public static final class PeakSampler implements AutoCloseable {
        private final Thread thread;
        private volatile boolean running = true;
        private long peakAnonymous = -1;
        private long peakFile = -1;

        private PeakSampler(long periodMillis) {
            sampleNow();
            thread = Thread.ofPlatform().daemon().name("jstark-resident-memory").unstarted(() -> {
                while (running) {
                    sampleNow();
                    try {
                        Thread.sleep(periodMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            if (AVAILABLE) {
                thread.start();
            }
        }

        /** A sampler every {@code periodMillis} ms (none runs where resident memory is not available). */
        public static PeakSampler start(long periodMillis) {
            return new PeakSampler(periodMillis);
        }

        /** Samples now (call at a phase boundary so that the boundary's figure is in both phases' peaks). */
        public synchronized Reading sampleNow() {
            Reading r = read();
            peakAnonymous = Math.max(peakAnonymous, r.anonymous());
            peakFile = Math.max(peakFile, r.file());
            return r;
        }

        /** The peaks since the last call (a sample now included), and starts the next interval from now. */
        public synchronized Reading takePeaks() {
            Reading now = sampleNow();
            Reading peaks = new Reading(peakAnonymous, peakFile);
            peakAnonymous = now.anonymous();
            peakFile = now.file();
            return peaks;
        }

        @Override
        public void close() {
            running = false;
            thread.interrupt();
        }
    }
}
