package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.RamAllocator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ExamplesTest {
    /** Several sizes per example, smallest included; kept small so that the whole suite stays fast. */
    private static final Map<String, int[]> SIZES = Map.of(
            "fib", new int[] {3, 6, 10},
            "periodic", new int[] {6, 7, 10},
            "vm", new int[] {1, 3, 8},
            "mix", new int[] {3, 6, 9},
            "keccak", new int[] {5, 6, 8},
            "poseidon2", new int[] {3, 4, 6},
            "vm-keccak", new int[] {1, 4, 7});

    static List<Arguments> examplesAndSizes() {
        return Examples.all().stream()
                .flatMap(e ->
                        java.util.Arrays.stream(SIZES.get(e.name())).mapToObj(size -> Arguments.of(e.name(), size)))
                .toList();
    }

    @Test
    void registryListsTheExamplesInOrder() {
        assertThat(Examples.names())
                .containsExactly("fib", "periodic", "vm", "mix", "keccak", "poseidon2", "vm-keccak");
        for (String name : Examples.names()) {
            assertThat(Examples.byName(name).name()).isEqualTo(name);
            assertThat(SIZES).containsKey(name);
        }
    }

    @Test
    void unknownNameIsATypedErrorListingTheKnownNames() {
        assertThatThrownBy(() -> Examples.byName("fibonaci"))
                .isInstanceOf(UnknownExampleException.class)
                .hasMessageContaining("'fibonaci'")
                .hasMessageContaining("fib, periodic, vm, mix, keccak, poseidon2, vm-keccak")
                .satisfies(e -> assertThat(((UnknownExampleException) e).known())
                        .containsExactly("fib", "periodic", "vm", "mix", "keccak", "poseidon2", "vm-keccak"));
    }

    @Test
    void sizesOutsideTheRangeAreRejectedBeforeAllocating() {
        for (Example e : Examples.all()) {
            assertThat(e.defaultLogSize()).isBetween(e.minLogSize(), e.maxLogSize());
            long live = RamAllocator.shared().liveBytes();
            assertThatThrownBy(() -> e.generate(e.minLogSize() - 1, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("example '" + e.name() + "'");
            assertThatThrownBy(() -> e.shapes(e.maxLogSize() + 1)).isInstanceOf(IllegalArgumentException.class);
            assertThat(RamAllocator.shared().liveBytes()).isEqualTo(live);
        }
    }

    @Test
    void everyConstraintStaysWithinDegreeThree() {
        for (Example e : Examples.all()) {
            assertThat(e.airs()).isNotEmpty().doesNotHaveDuplicates();
            for (Air air : e.airs()) {
                assertThat(air.maxDegree()).as(air.name()).isLessThanOrEqualTo(3);
            }
        }
    }

    @ParameterizedTest(name = "{0} at log size {1}")
    @MethodSource("examplesAndSizes")
    void everyWorkloadPassesEveryCheck(String name, int logSize) {
        Example example = Examples.byName(name);
        long live = RamAllocator.shared().liveBytes();
        try (Workload w = example.generate(logSize, 42)) {
            assertThat(w.shapes()).isEqualTo(example.shapes(logSize));
            for (TableTrace t : w.tables()) {
                assertThat(example.airs()).as("definition of " + t.name()).containsOnlyOnce(t.air());
            }
            WorkloadChecks.checkConstraints(w);
            WorkloadChecks.checkBuses(w);
            WorkloadChecks.LogUpSums sums = WorkloadChecks.checkLogUp(w, WorkloadChecks.randomChallenges(logSize));
            assertThat(sums.total().isZero()).isTrue();
            if (w.size() > 1) {
                // a real multi-table argument: some table contributes a nonzero sum that others cancel
                assertThat(sums.perTable()).anyMatch(s -> !s.isZero());
            }
        }
        assertThat(RamAllocator.shared().liveBytes())
                .as("closing the workload frees its matrices")
                .isEqualTo(live);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("smallestSizes")
    void sameSeedSameTracesOtherSeedOtherTraces(String name, int logSize) {
        Example example = Examples.byName(name);
        try (Workload a = example.generate(logSize, 5);
                Workload b = example.generate(logSize, 5);
                Workload c = example.generate(logSize, 6)) {
            assertThat(TraceAssertions.identical(a, b)).isTrue();
            assertThat(TraceAssertions.identical(a, c)).isFalse();
        }
    }

    static List<Arguments> smallestSizes() {
        return Examples.all().stream()
                .map(e -> Arguments.of(e.name(), SIZES.get(e.name())[1]))
                .toList();
    }

    @Test
    void workloadRejectsDuplicateTableNamesAndNamesItsTables() {
        try (Workload w = Examples.byName("vm").generate(2, 1)) {
            assertThat(w.indexOf("memory")).isEqualTo(1);
            assertThat(w.table("range16").height()).isEqualTo(1 << 16);
            assertThatThrownBy(() -> w.table("disk"))
                    .hasMessageContaining("no table 'disk'")
                    .hasMessageContaining("cpu, memory, range16");
            TableTrace cpu = w.table("cpu");
            assertThatThrownBy(() -> new Workload("twice", List.of(cpu, cpu)))
                    .hasMessageContaining("two tables named 'cpu'");
        }
    }
}
