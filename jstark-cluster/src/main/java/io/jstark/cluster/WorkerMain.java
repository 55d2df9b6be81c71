package io.jstark.cluster;

import io.jstark.instrument.ByteSize;
import java.io.File;
import java.nio.file.Path;

/**
 * Runs one worker until the process is stopped: {@code --listen HOST:PORT --memory-budget SIZE}, optionally
 * {@code --spill-dir DIR} (where what the budget does not hold in RAM spills; the system temp directory by default)
 * and, for mutual TLS,
 * {@code --tls-cert FILE --tls-key FILE --tls-ca FILE}. It prints {@code listening HOST:PORT} on standard output once it
 * serves (the port the system chose for port 0), and frees its tables on SIGTERM. The {@code jstark worker} command
 * offers the same with the CLI's conventions.
 */
public final class WorkerMain {
    private WorkerMain() {}

    /**
     * Starts the worker and serves until the process ends.
     *
     * @param args the options above
     * @throws Exception when the worker cannot start (the address taken, TLS files unreadable)
     */
    public static void main(String[] args) throws Exception {
        String listen = null;
        long budget = -1;
        File cert = null;
        File key = null;
        File ca = null;
        Path spillDirectory = null;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--listen" -> listen = value;
                case "--memory-budget" -> budget = ByteSize.parse(value);
                case "--tls-cert" -> cert = new File(value);
                case "--tls-key" -> key = new File(value);
                case "--tls-ca" -> ca = new File(value);
                case "--spill-dir" -> spillDirectory = Path.of(value);
                default ->
                    throw new IllegalArgumentException("unknown option " + args[i]
                            + " (expected --listen, --memory-budget, --spill-dir, --tls-cert, --tls-key, --tls-ca)");
            }
        }
        if (listen == null || budget < 0) {
            throw new IllegalArgumentException("--listen HOST:PORT and --memory-budget SIZE are required");
        }
        WorkerServer.serveUntilStopped(
                WorkerAddress.parse(listen), budget, spillDirectory, new ClusterTls(cert, key, ca), System.out);
    }
}
