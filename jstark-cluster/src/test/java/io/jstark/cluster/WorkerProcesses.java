package io.jstark.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Worker JVMs on loopback, started from the test's own classpath ({@link WorkerMain}); closing stops every one (SIGTERM,
 * then SIGKILL after a grace period), so no process outlives the test.
 */
final class WorkerProcesses implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<WorkerAddress> addresses = new ArrayList<>();
    private final Path logs;

    private WorkerProcesses(Path logs) {
        this.logs = logs;
    }

    /**
     * Starts {@code count} workers on 127.0.0.1, each with this budget and these extra options.
     *
     * @param count how many
     * @param memoryBudget each one's --memory-budget
     * @param extra further worker options (TLS files)
     * @return the running workers, the caller's to close
     */
    static WorkerProcesses start(int count, String memoryBudget, String... extra) throws IOException {
        WorkerProcesses workers = new WorkerProcesses(Files.createTempDirectory("jstark-workers"));
        try {
            for (int i = 0; i < count; i++) {
                workers.startOne(i, memoryBudget, extra);
            }
            return workers;
        } catch (IOException | RuntimeException e) {
            workers.close();
            throw e;
        }
    }

    private void startOne(int index, String memoryBudget, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                WorkerMain.class.getName(),
                "--listen",
                "127.0.0.1:0",
                "--memory-budget",
                memoryBudget));
        command.addAll(List.of(extra));
        File log = logs.resolve("worker-" + index + ".log").toFile();
        Process p = new ProcessBuilder(command).redirectError(log).start();
        processes.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("listening ")) {
            throw new IOException(
                    "worker " + index + " did not start (" + line + "): " + Files.readString(log.toPath()));
        }
        addresses.add(WorkerAddress.parse(line.substring("listening ".length())));
    }

    /** {@return the first {@code n} workers' addresses} */
    List<WorkerAddress> first(int n) {
        return List.copyOf(addresses.subList(0, n));
    }

    /** {@return the worker processes, in start order} */
    List<Process> processes() {
        return List.copyOf(processes);
    }

    /** {@return what worker {@code index} logged so far} */
    String log(int index) throws IOException {
        return Files.readString(logs.resolve("worker-" + index + ".log"));
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try (var files = Files.list(logs)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(logs);
        } catch (IOException e) {
            // the logs are in the system's temporary folder; a leftover there is harmless
        }
    }
}
