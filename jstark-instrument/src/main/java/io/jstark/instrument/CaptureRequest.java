package io.jstark.instrument;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Asks a {@link SpanRecorder} to record a JFR file around one phase ({@link Phases}): the recording starts in the
 * boundary where the first phase labelled {@code label} begins and is written to {@code file} in the boundary where
 * that same phase ends. Both costs lie in those boundaries' instrumentation spans.
 *
 * @param label     the phase label to capture; never a per-table instance label (suffix {@code _table})
 * @param file      where the JFR file goes
 * @param onWritten told the file's path once written (the recorder also prints it on stderr); may be null
 */
public record CaptureRequest(String label, Path file, Consumer<Path> onWritten) {
    public static final String LABEL_VARIABLE = "JSTARK_CAPTURE_SPAN";
    public static final String FILE_VARIABLE = "JSTARK_CAPTURE_FILE";

    public CaptureRequest {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("capture span label must not be blank");
        }
        if (SpanLabels.isTableLabel(label)) {
            throw new IllegalArgumentException(
                    "capture span '" + label + "' can never trigger: per-table instance" + " spans (suffix "
                            + SpanLabels.TABLE_SUFFIX + ") run concurrently and are never captured; name a phase");
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
     * empty. An unusable label is logged (a {@link System.Logger} warning) and ignored rather than failing the run.
     */
    public static Optional<CaptureRequest> fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** As {@link #fromEnvironment()}, from {@code environment} (a daemon's client's) instead of this process's. */
    public static Optional<CaptureRequest> fromEnvironment(java.util.Map<String, String> environment) {
        String label = environment.get(LABEL_VARIABLE);
        if (label == null || label.isBlank()) {
            return Optional.empty();
        }
        String file = environment.get(FILE_VARIABLE);
        try {
            return Optional.of(
                    new CaptureRequest(label.strip(), file == null || file.isBlank() ? null : Path.of(file), null));
        } catch (IllegalArgumentException e) {
            System.getLogger(CaptureRequest.class.getName())
                    .log(System.Logger.Level.WARNING, "ignoring {0}: {1}", LABEL_VARIABLE, e.getMessage());
            return Optional.empty();
        }
    }
}
