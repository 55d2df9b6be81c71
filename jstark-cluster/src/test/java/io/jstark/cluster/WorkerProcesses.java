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
    private final List<String> budgets = new ArrayList<>();
    private final List<String[]> extras = new ArrayList<>();
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
        budgets.add(memoryBudget);
        extras.add(extra.clone());
        processes.add(null);
        addresses.add(null);
        launch(index, "127.0.0.1:0");
    }

    /** Starts worker {@code index} listening on {@code listen}, in its place in the lists. */
    private void launch(int index, String listen) throws IOException {
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
                listen,
                "--memory-budget",
                budgets.get(index)));
        command.addAll(List.of(extras.get(index)));
        File log = logs.resolve("worker-" + index + ".log").toFile();
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log))
                .start();
        processes.set(index, p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("listening ")) {
            throw new IOException(
                    "worker " + index + " did not start (" + line + "): " + Files.readString(log.toPath()));
        }
        addresses.set(index, WorkerAddress.parse(line.substring("listening ".length())));
    }

    /**
     * Kills worker {@code index} (SIGKILL) and starts a new one with the same options on the same address, which holds
     * none of the old one's sessions; returns once it serves.
     *
     * @return the exit status of the killed process
     */
    int killAndRestart(int index) throws IOException, InterruptedException {
        Process old = processes.get(index);
        old.destroyForcibly();
        int status = old.waitFor();
        WorkerAddress address = addresses.get(index);
        // the killed process's connections may hold the port a moment longer
        for (int attempt = 1; ; attempt++) {
            try {
                launch(index, address.toString());
                return status;
            } catch (IOException e) {
                if (attempt == 20) {
                    throw e;
                }
                Thread.sleep(250);
            }
        }
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
        List<Process> started = processes.stream().filter(p -> p != null).toList();
        for (Process p : started) {
            p.destroy();
        }
        for (Process p : started) {
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
