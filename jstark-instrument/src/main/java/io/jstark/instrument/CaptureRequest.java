package io.jstark.instrument;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Asks a {@link SpanRecorder} to record a JFR file around one span: the recording starts when the first
 * caller-thread instance of {@code label} opens and is written to {@code file} when that same instance closes.
 *
 * @param label     the span label to capture; never a per-table instance label (suffix {@code _table})
 * @param file      where the JFR file goes
 * @param onWritten told the file's path once written (the recorder also prints it on stderr); may be null
 */
public record CaptureRequest(String label, Path file, Consumer<Path> onWritten) {
    public static final String LABEL_VARIABLE = "JSTARK_CAPTURE_SPAN";
    public static final String FILE_VARIABLE = "JSTARK_CAPTURE_FILE";
    static final String TABLE_SUFFIX = "_table";
    /**
     * The span that times starting the recording, just before the captured span opens, as its sibling: a JFR
     * recording takes a noticeable time to start, which must not hide between two phases (the sum rule) nor
     * inflate the captured phase.
     */
    public static final String START_SPAN = "jfr_capture_start";
    /** The span that times stopping the recording and writing the file, just after the captured span closes. */
    public static final String STOP_SPAN = "jfr_capture_stop";

    public CaptureRequest {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("capture span label must not be blank");
        }
        if (label.endsWith(TABLE_SUFFIX)) {
            throw new IllegalArgumentException("capture span '" + label + "' can never trigger: per-table instance"
                    + " spans (suffix " + TABLE_SUFFIX + ") run concurrently and are never captured");
        }
        file = file == null ? defaultFile(label) : file;
    }

    public CaptureRequest(String label) {
        this(label, null, null);
    }

    /** {@code jstark-capture-<label>.jfr} in the working directory, unsafe file-name characters replaced. */
    public static Path defaultFile(String label) {
        return Path.of("jstark-capture-" + label.replaceAll("[^A-Za-z0-9._-]", "_") + ".jfr");
    }

    /**
     * The request named by {@value #LABEL_VARIABLE} (file from {@value #FILE_VARIABLE}, else the default), or
     * empty. An unusable label is reported on stderr and ignored rather than failing the run.
     */
    public static Optional<CaptureRequest> fromEnvironment() {
        String label = System.getenv(LABEL_VARIABLE);
        if (label == null || label.isBlank()) {
            return Optional.empty();
        }
        String file = System.getenv(FILE_VARIABLE);
        try {
            return Optional.of(new CaptureRequest(label.strip(),
                    file == null || file.isBlank() ? null : Path.of(file), null));
        } catch (IllegalArgumentException e) {
            System.err.println("jstark: ignoring " + LABEL_VARIABLE + ": " + e.getMessage());
            return Optional.empty();
        }
    }
}
