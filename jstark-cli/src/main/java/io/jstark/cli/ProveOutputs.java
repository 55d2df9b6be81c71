package io.jstark.cli;

import io.jstark.instrument.CaptureRequest;
import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Timeline;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.PoolOccupancy;
import io.jstark.profile.ChromeTraceWriter;
import io.jstark.profile.TimelineJson;
import io.jstark.profile.report.TimelineHtml;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** What {@code prove} writes besides the proof: the timing report, the timeline files, a JFR capture. */
public final class ProveOutputs {
    @Option(
            names = "--report",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Print the timing report after proving (default: on; --no-report to skip).")
    boolean report;

    @Option(
            names = "--timeline",
            paramLabel = "FILE",
            description =
                    "Write the timeline: JSON Lines, a header and one record per " + "span (read by 'jstark profile').")
    Path timeline;

    @Option(
            names = "--trace-events",
            paramLabel = "FILE",
            description =
                    "Write the timeline as Chrome trace events (open in " + "ui.perfetto.dev or chrome://tracing).")
    Path traceEvents;

    @Option(
            names = "--timeline-html",
            paramLabel = "FILE",
            description = "Write a self-contained HTML page with the Gantt chart "
                    + "of the tables per driver thread under the phases.")
    Path timelineHtml;

    @Option(
            names = "--capture-span",
            paramLabel = "LABEL",
            description = "Record a JFR file around the phase LABEL, " + "e.g. composition (default: $"
                    + CaptureRequest.LABEL_VARIABLE + ").")
    String captureSpan;

    @Option(
            names = "--capture-file",
            paramLabel = "FILE",
            description = "Where the JFR capture goes (default: $" + CaptureRequest.FILE_VARIABLE
                    + ", else jstark-capture-LABEL.jfr).")
    Path captureFile;

    /** The flag, else the environment ({@value CaptureRequest#LABEL_VARIABLE}), else none. */
    Optional<CaptureRequest> capture() {
        // the default file is relative: in the daemon, to its client's working directory
        return requested()
                .map(c -> new CaptureRequest(c.label(), Invocation.path(c.file().toString()), c.onWritten()));
    }

    private Optional<CaptureRequest> requested() {
        if (captureSpan != null) {
            try {
                return Optional.of(new CaptureRequest(captureSpan.strip(), captureFile, null));
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--capture-span: " + e.getMessage());
            }
        }
        Optional<CaptureRequest> fromEnvironment = CaptureRequest.fromEnvironment(Invocation.environment());
        if (captureFile != null && fromEnvironment.isPresent()) {
            return Optional.of(new CaptureRequest(fromEnvironment.get().label(), captureFile, null));
        }
        return fromEnvironment;
    }

    /** A recorder with the capture, sampling memory at the phase boundaries as every command does ({@link #memorySampler}). */
    SpanRecorder recorder(Optional<CaptureRequest> capture) {
        return new SpanRecorder(capture.orElse(null), memorySampler());
    }

    /**
     * What the commands sample at every phase boundary: the heap in use, the shared allocator's off-heap bytes, and the
     * wall so far with 0, 1, ..., cores + 1 or more threads running worker-pool work ({@link PoolOccupancy}). A new
     * figure per phase (another {@link MemorySampler.Figure}) is added here, for prove and the benchmarks alike.
     */
    static MemorySampler memorySampler() {
        MemorySampler sampler = MemorySampler.withOffHeap(RamAllocator.shared()::liveBytes);
        for (MemorySampler.Figure f :
                PoolOccupancy.shared().boundaryFigures(Runtime.getRuntime().availableProcessors() + 2)) {
            sampler = sampler.and(f);
        }
        return sampler;
    }

    /** Writes the requested timeline files and says where they went. */
    void write(Timeline t, String title, PrintStream out) throws IOException {
        if (timeline == null && traceEvents == null && timelineHtml == null) {
            return;
        }
        if (timeline != null) {
            TimelineJson.write(t, timeline);
            out.printf("timeline (%d spans) written to %s%n", t.spans().size(), timeline);
        }
        if (traceEvents != null) {
            ChromeTraceWriter.write(t, traceEvents);
            out.printf("trace events written to %s (open in ui.perfetto.dev)%n", traceEvents);
        }
        if (timelineHtml != null) {
            TimelineHtml.write(t, timelineHtml, title);
            out.printf("timeline chart written to %s%n", timelineHtml);
        }
    }

    /** Says where the JFR capture went, or that its span never opened on the caller thread. */
    static void reportCapture(SpanRecorder recorder, Optional<CaptureRequest> capture, PrintStream out) {
        if (capture.isEmpty()) {
            return;
        }
        Optional<Path> file = recorder.capturedFile();
        if (file.isPresent()) {
            out.printf("JFR capture of span '%s' written to %s%n", capture.get().label(), file.get());
        } else {
            out.printf(
                    "JFR capture: no phase '%s' began (or JFR is unavailable); nothing was captured%n",
                    capture.get().label());
        }
    }

    /** Refuses, before any work, the timeline outputs that cannot be written. */
    void requireWritable() {
        requireWritableIfGiven(timeline, "--timeline");
        requireWritableIfGiven(traceEvents, "--trace-events");
        requireWritableIfGiven(timelineHtml, "--timeline-html");
        requireWritableIfGiven(captureFile, "--capture-file");
    }

    private static void requireWritableIfGiven(Path file, String option) {
        if (file != null) {
            requireWritableFile(file, option);
        }
    }

    /**
     * An output file {@code option} names, checked before the work that fills it: its directory must exist
     * (no command makes directories unasked), and a directory in its place is a bad value; both are usage
     * errors, not a broken environment.
     */
    static void requireWritableFile(Path file, String option) {
        requireParentDirectory(file, option);
        if (Files.isDirectory(file)) {
            throw new Main.UsageException(option + " " + file + " is a directory; give a file name");
        }
    }

    /** The directory {@code file} goes into exists, else a usage error naming {@code option}. */
    static void requireParentDirectory(Path file, String option) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new Main.UsageException(option + " " + file + ": directory " + parent
                    + " does not exist (jstark makes no " + "directories; create it first)");
        }
    }
}
