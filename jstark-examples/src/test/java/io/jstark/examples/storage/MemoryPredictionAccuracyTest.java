package io.jstark.examples.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The model's peak against the measured peak on the zkVM-like mix at k = 1, 2, 4 (default proof options),
 * measured in a JVM of its own ({@link MemoryAccuracyMain}): a fresh RAM counter, and a 256 MiB heap so
 * that collections run and measure the live heap.
 *
 * <ul>
 *   <li>RAM peak (off-heap counted exactly + heap after collections) within 15% of the prediction;</li>
 *   <li>off-heap alone: the prediction is an upper bound; at k = 1 (one table at a time, every LDE and tree
 *       held to the queries) over by at most the tables' DEEP polynomials, which the model holds through the
 *       FRI pass and the lifted sum closes inside it.</li>
 * </ul>
 */
class MemoryPredictionAccuracyTest {
    private static final Pattern FIGURES = Pattern.compile(
            "FIGURES k=(\\d+) predictedOffHeap=(\\d+) measuredOffHeap=(\\d+) predictedRam=(\\d+) measuredHeapAfterGc=(-?\\d+) "
                    + "deepPolynomials=(\\d+)");

    @Test
    void predictedPeakIsWithinFifteenPercentOfTheMeasuredPeak() throws IOException, InterruptedException {
        assertAccurate(List.of("12", "2", "1", "2", "4"), 3);
    }

    @Test
    void withZeroKnowledgeTooTheTallerBuffersAndTheSaltsArePredicted() throws IOException, InterruptedException {
        assertAccurate(List.of("zk", "12", "2", "1", "2"), 2);
    }

    private static void assertAccurate(List<String> arguments, int expectedRuns)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseParallelGC",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                MemoryAccuracyMain.class.getName()));
        command.addAll(arguments);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        System.out.println(output);
        Matcher m = FIGURES.matcher(output);
        int runs = 0;
        while (m.find()) {
            runs++;
            int k = Integer.parseInt(m.group(1));
            long predictedOffHeap = Long.parseLong(m.group(2));
            long measuredOffHeap = Long.parseLong(m.group(3));
            long predictedRam = Long.parseLong(m.group(4));
            long heapAfterGc = Long.parseLong(m.group(5));
            assertThat(heapAfterGc)
                    .as("a collection measured the heap at k=%d:%n%s", k, output)
                    .isPositive();
            long measuredRam = measuredOffHeap + heapAfterGc;
            assertThat(Math.abs(predictedRam - measuredRam) / (double) measuredRam)
                    .as("RAM peak at k=%d:%n%s", k, output)
                    .isLessThanOrEqualTo(0.15);
            assertThat(predictedOffHeap).as("off-heap bound at k=%d", k).isGreaterThanOrEqualTo(measuredOffHeap);
            if (k == 1) {
                assertThat(predictedOffHeap - measuredOffHeap)
                        .as("off-heap over at k=1")
                        .isLessThanOrEqualTo(Long.parseLong(m.group(6)));
            }
        }
        assertThat(runs).as(output).isEqualTo(expectedRuns);
    }
}
