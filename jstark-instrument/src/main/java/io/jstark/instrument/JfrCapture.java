package io.jstark.instrument;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Configuration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

/**
 * One recorder's capture of a {@link CaptureRequest}: at most one JFR recording per recorder, started where the
 * first phase with the label begins and stopped where that same phase ends, both inside the boundary's
 * instrumentation span ({@link PhaseSequence}). Spans of the label on other threads never start or stop it.
 */
final class JfrCapture {
    private static final System.Logger LOG = System.getLogger(JfrCapture.class.getName());

    private final CaptureRequest request;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private volatile LiveSpan owner;
    private Recording recording; // written by the claiming thread before owner is published, read by owner
    private volatile Path written;

    JfrCapture(CaptureRequest request) {
        this.request = request;
    }

    /** Whether {@link #tryStart} would try to start the recording for a phase with this label (nothing claimed yet). */
    boolean wouldStart(String label) {
        return label.equals(request.label()) && !claimed.get();
    }

    /**
     * Starts the recording when a phase with this label begins and no capture has been claimed yet; the caller
     * must then {@link #own} it with the new phase.
     */
    boolean tryStart(String label) {
        if (!label.equals(request.label()) || !claimed.compareAndSet(false, true)) {
            return false;
        }
        try {
            if (!FlightRecorder.isAvailable()) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "cannot capture span ''{0}'': JFR is not available in this JVM",
                        label);
                return false;
            }
            Path file = request.file().toAbsolutePath();
            Path dir = file.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Recording r = new Recording(Configuration.getConfiguration("profile"));
            r.setName("jstark-capture-" + label);
            r.enable(SpanEvent.NAME);
            r.setToDisk(true);
            r.setDestination(file);
            r.start();
            recording = r;
            return true;
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "cannot capture span ''{0}'': {1}", label, e);
            return false;
        }
    }

    void own(LiveSpan span) {
        owner = span;
    }

    boolean isOwner(LiveSpan span) {
        return owner == span;
    }

    /** Called by the owning span as it closes: stops the recording, which writes the file, and reports it. */
    void finish(LiveSpan span) {
        owner = null;
        Recording r = recording;
        recording = null;
        if (r == null) {
            return;
        }
        try (r) {
            r.stop();
            Path file = r.getDestination();
            written = file;
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "JFR capture of span ''{0}'' (span {1}) written to {2}",
                    request.label(),
                    span.id(),
                    file);
            if (request.onWritten() != null) {
                request.onWritten().accept(file);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "JFR capture of span ''{0}'' failed: {1}", request.label(), e);
        }
    }

    /** Whether a recording has been started and not yet stopped. */
    boolean isRecording() {
        return owner != null;
    }

    Path writtenFile() {
        return written;
    }
}
