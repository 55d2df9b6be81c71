package io.jstark.examples.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Examples;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.Storage;
import io.jstark.storage.StorageMode;
import io.jstark.storage.StorageOptions;
import io.jstark.storage.StoragePlanner;
import io.jstark.storage.memory.MemoryModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spill mode in a JVM of its own, with a heap smaller than the proof's LDEs and a memory budget smaller
 * than their sum: the proof verifies, its off-heap RAM stays under the budget, and no spill data is left
 * behind after success, a failing table, {@code kill -9} or SIGTERM.
 */
class ForkedSpillTest {
    private static final long MIB = 1 << 20;
    private static final int HEAP_MIB = 72;
    private static final long BUDGET = 128 * MIB;

    @TempDir
    Path temp;

    /** A running child JVM and its output lines. */
    private record Child(Process process, List<String> lines, CountDownLatch midway) {
        String output() {
            synchronized (lines) {
                return String.join("\n", lines);
            }
        }

        String line(String prefix) {
            synchronized (lines) {
                return lines.stream()
                        .filter(l -> l.startsWith(prefix))
                        .findFirst()
                        .orElse(null);
            }
        }
    }

    private static Child fork(String mode, Path spillDir, int logSize, StorageMode storage) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP_MIB + "m",
                "-XX:+UseParallelGC",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                SpillProveMain.class.getName(),
                mode,
                spillDir.toString(),
                Long.toString(BUDGET),
                Integer.toString(logSize),
                "2",
                storage.label()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch midway = new CountDownLatch(1);
        Thread reader = Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    if (line.startsWith("MIDWAY")) {
                        midway.countDown();
                    }
                }
            } catch (IOException e) {
                lines.add("(output lost: " + e + ")");
            }
        });
        reader.setName("child-output");
        return new Child(p, lines, midway);
    }

    private static int finish(Child child) throws InterruptedException {
        if (!child.process().waitFor(120, TimeUnit.SECONDS)) {
            child.process().destroyForcibly();
            throw new AssertionError("child JVM did not finish in 120 s:\n" + child.output());
        }
        child.process().waitFor();
        Thread.sleep(50);
        return child.process().exitValue();
    }

    private static long field(String line, String name) {
        Matcher m = Pattern.compile(name + "=(-?\\d+)").matcher(line);
        assertThat(m.find()).as("%s in '%s'", name, line).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Regular files anywhere under {@code dir} (directories do not hold data). */
    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    private static long entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void aProofLargerThanTheHeapAndTheBudgetIsProvenInSpillModeAndVerifies() throws Exception {
        List<TableDimensions> tables = StorageWorkloads.dimensions(Examples.byName("mix"), 14);
        MemoryModel model = new MemoryModel(new ProofOptions(3, 28, 8, 2, 3, "sha256", 0), 2);
        long ldes = StorageWorkloads.ldeBytes(model, tables);
        assertThat(ldes)
                .as("the LDEs exceed the budget and the child's heap")
                .isGreaterThan(BUDGET)
                .isGreaterThan(HEAP_MIB * MIB);
        assertThat(StorageWorkloads.largestLde(model, tables))
                .as("one LDE alone is larger than the heap")
                .isGreaterThan(HEAP_MIB * MIB);
        Path spill = Files.createDirectory(temp.resolve("spill"));
        Child child = fork("prove", spill, 14, StorageMode.AUTO);
        int exit = finish(child);
        String result = child.line("RESULT");
        assertThat(exit).as(child.output()).isZero();
        assertThat(result).as(child.output()).startsWith("RESULT verified");
        assertThat(field(result, "spillPeak")).isPositive();
        assertThat(field(result, "ramPeak"))
                .as("measured off-heap RAM stays under the budget less its margin")
                .isLessThanOrEqualTo(field(result, "ramLimit"))
                .isLessThan(BUDGET);
        assertThat(field(result, "heapMax")).isLessThanOrEqualTo(HEAP_MIB * MIB);
        assertThat(child.output()).contains("storage plan: spill");
        assertThat(entries(spill)).as("nothing left in the spill directory").isZero();
    }

    @Test
    void aTableFailingHalfWayLeavesNoSpillFile() throws Exception {
        Path spill = Files.createDirectory(temp.resolve("spill"));
        Child child = fork("fail", spill, 10, StorageMode.DISK);
        assertThat(finish(child)).as(child.output()).isZero();
        String result = child.line("RESULT");
        assertThat(result)
                .as(child.output())
                .startsWith("RESULT failed")
                .contains("table 'cpu'")
                .contains("fails at row");
        assertThat(field(result, "spillPeak")).as("it failed after spilling").isPositive();
        assertThat(field(result, "openBuffers"))
                .as("every spilled buffer was released by the failing prover")
                .isZero();
        assertThat(entries(spill)).isZero();
    }

    @Test
    void killMinusNineMidProofLeavesNoSpillData() throws Exception {
        Path spill = Files.createDirectory(temp.resolve("spill"));
        boolean mounted = mount(spill, "size=512m");
        try {
            long freeBefore = Files.getFileStore(spill).getUsableSpace();
            Child child = fork("hang", spill, 10, StorageMode.DISK);
            assertThat(child.midway().await(120, TimeUnit.SECONDS))
                    .as(child.output())
                    .isTrue();
            long live = field(child.line("MIDWAY"), "spillLive");
            assertThat(live).isPositive();
            assertThat(files(spill))
                    .as("spill files have no names while mapped")
                    .isEmpty();
            if (mounted) {
                assertThat(Files.getFileStore(spill).getUsableSpace())
                        .as("the reservation and the live buffers hold space")
                        .isLessThanOrEqualTo(freeBefore - live);
            }
            child.process().destroyForcibly();
            child.process().waitFor(60, TimeUnit.SECONDS);
            assertThat(files(spill)).isEmpty();
            if (mounted) {
                assertThat(Files.getFileStore(spill).getUsableSpace())
                        .as("the space came back with the process")
                        .isEqualTo(freeBefore);
            }
            // the next session removes the empty directory the killed one could not
            try (Storage storage = StoragePlanner.plan(
                            StorageWorkloads.dimensions(Examples.byName("mix"), 3),
                            new ProofOptions(3, 28, 8, 2, 3, "sha256", 0),
                            1,
                            2,
                            StorageOptions.defaults().withMode(StorageMode.DISK).withSpillDirectory(spill))
                    .open()) {
                assertThat(entries(spill)).isEqualTo(1);
            }
            assertThat(entries(spill)).isZero();
        } finally {
            if (mounted) {
                run("umount", spill.toString());
            }
        }
    }

    @Test
    void sigtermMidProofRemovesTheSpillDirectory() throws Exception {
        Path spill = Files.createDirectory(temp.resolve("spill"));
        Child child = fork("hang", spill, 10, StorageMode.DISK);
        assertThat(child.midway().await(120, TimeUnit.SECONDS))
                .as(child.output())
                .isTrue();
        assertThat(entries(spill)).isEqualTo(1);
        child.process().destroy();
        assertThat(child.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(entries(spill))
                .as("the shutdown hook removed the session directory")
                .isZero();
    }

    /** Mounts a tmpfs so that freed space can be observed; false (and the space checks are skipped) when not allowed. */
    private static boolean mount(Path dir, String options) {
        boolean ok = run("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString()) == 0;
        if (!ok) {
            System.err.println(
                    "cannot mount a tmpfs (needs root): the kill -9 test checks files only, not the freed space");
        }
        return ok;
    }

    private static int run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
