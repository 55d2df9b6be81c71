package io.jstark.cli.daemon;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** {@code jstark daemon ...} as the client answers it, for tests outside this package. */
public final class DaemonControl {
    private DaemonControl() {}

    /**
     * The exit code of {@code jstark daemon args...} run by the client over the daemons of {@code directory} (2 when the
     * client does not know the command); starts no daemon.
     */
    public static int exitCode(Path directory, List<String> args) {
        ByteArrayOutputStream ignored = new ByteArrayOutputStream();
        List<String> command = new java.util.ArrayList<>(List.of("daemon"));
        command.addAll(args);
        return new DaemonClient(
                        List.of(),
                        System.getProperty("java.class.path"),
                        Map.of(DaemonProtocol.DIRECTORY_VARIABLE, directory.toString()),
                        directory,
                        ignored,
                        ignored)
                .run(command.toArray(String[]::new));
    }
}
