package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.RamAllocator;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MixTest {
    @Test
    void zkvmPresetAtFullScaleIsComputedWithoutAllocating() {
        long live = RamAllocator.shared().liveBytes();
        List<TableShape> shapes = MixSpec.zkvm(0).shapes();
        assertThat(RamAllocator.shared().liveBytes()).isEqualTo(live);

        List<TableShape> preprocessed =
                shapes.stream().filter(s -> s.air().preprocessedWidth() > 0).toList();
        List<TableShape> others =
                shapes.stream().filter(s -> s.air().preprocessedWidth() == 0).toList();
        assertThat(preprocessed).extracting(TableShape::name).containsExactly("range16", "bitwise8");
        assertThat(preprocessed).allMatch(s -> s.logHeight() == 16);
        assertThat(others)
                .extracting(TableShape::logHeight)
                .allMatch(h -> h >= 10 && h <= 20)
                .contains(10, 20);
        assertThat(others)
                .extracting(TableShape::mainWidth)
                .allMatch(w -> w >= 4 && w <= 80)
                .contains(4, 80);
        TableShape cpu = shapes.get(0);
        assertThat(cpu.name()).isEqualTo("cpu");
        assertThat(cpu.rows()).isEqualTo(1 << 20);
        assertThat(cpu.mainWidth()).isEqualTo(80);
        // many small tables, several mid-size ones
        assertThat(others.stream().filter(s -> s.logHeight() <= 14).count()).isGreaterThanOrEqualTo(6);
        assertThat(others.stream()
                        .filter(s -> s.logHeight() >= 16 && s.logHeight() <= 18)
                        .count())
                .isGreaterThanOrEqualTo(4);
        assertThat(MixSpec.zkvm(0).mainCells())
                .isEqualTo(shapes.stream().mapToLong(TableShape::mainCells).sum());
    }

    @Test
    void scaleShiftsOnlyTheNonPreprocessedHeights() {
        List<TableShape> full = MixSpec.zkvm(0).shapes();
        List<TableShape> scaled = MixSpec.zkvm(MixSpec.DEFAULT_ZKVM_SCALE).shapes();
        assertThat(scaled).hasSameSizeAs(full);
        for (int i = 0; i < full.size(); i++) {
            assertThat(scaled.get(i).air()).isSameAs(full.get(i).air());
            int expected = full.get(i).air().fixedLogHeight() >= 0
                    ? 16
                    : Math.max(3, full.get(i).logHeight() - MixSpec.DEFAULT_ZKVM_SCALE);
            assertThat(scaled.get(i).logHeight()).as(full.get(i).name()).isEqualTo(expected);
        }
        assertThat(scaled.get(0).rows()).isEqualTo(1 << 16);
        assertThat(Mix.airs(MixSpec.zkvm(0)))
                .isEqualTo(Mix.airs(MixSpec.zkvm(12)))
                .isEqualTo(Examples.byName("mix").airs());
        assertThat(Examples.byName("mix").shapes(16)).isEqualTo(scaled);
        assertThatThrownBy(() -> MixSpec.zkvm(18)).hasMessageContaining("scale 18");
    }

    @Test
    void tablesOfOneShapeShareADefinition() {
        MixSpec spec = MixSpec.zkvm(0);
        List<TableShape> shapes = spec.shapes();
        TableShape a = shapes.stream()
                .filter(s -> s.name().equals("compute-a"))
                .findFirst()
                .orElseThrow();
        TableShape b = shapes.stream()
                .filter(s -> s.name().equals("compute-b"))
                .findFirst()
                .orElseThrow();
        assertThat(a.air()).isSameAs(b.air());
        assertThat(a.logHeight()).isNotEqualTo(b.logHeight());
        assertThat(Mix.airs(spec)).hasSize(shapes.size() - 1).doesNotHaveDuplicates();
        for (Air air : Mix.airs(spec)) {
            assertThat(air.maxDegree()).as(air.name()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void zkvmAtSmallScalePassesEveryCheck() {
        try (Workload w = Mix.generate(MixSpec.zkvm(11), 77, RamAllocator.shared())) {
            assertThat(w.table("cpu").height()).isEqualTo(1 << 9);
            WorkloadChecks.checkAll(w, 78);
            // traffic reaches every receiver and both preprocessed tables
            for (String receiver : List.of("ram", "program", "registers", "rom", "range16", "bitwise8")) {
                TableTrace t = w.table(receiver);
                long[] multiplicity = t.main().columnToArray(t.main().columns() - 1);
                assertThat(java.util.Arrays.stream(multiplicity).sum())
                        .as(receiver)
                        .isPositive();
            }
        }
    }

    @Test
    void aTamperedLookupIsCaughtNamingTheSender() {
        try (Workload w = Mix.generate(MixSpec.zkvm(12), 5, RamAllocator.shared())) {
            TableTrace alu = w.table("alu");
            // the xor column of the first byte pair (after 24 state and 4 limb columns)
            int xor = 24 + 4 + 2;
            alu.main().set(3, xor, alu.main().get(3, xor) ^ 1);
            TraceAssertions.assertCaught(w, "alu");
        }
        try (Workload w = Mix.generate(MixSpec.zkvm(12), 5, RamAllocator.shared())) {
            TableTrace ram = w.table("ram");
            int row = 0;
            while (ram.main().get(row, 4) == 0) { // a tuple some worker looked up
                row++;
            }
            ram.main().set(row, 1, Goldilocks.add(ram.main().get(row, 1), 1));
            TraceAssertions.assertCaught(w, "ram");
        }
    }

    @Test
    void sameSeedSameMixOtherSeedOtherMix() {
        MixSpec spec = MixSpec.random(6, 3, 5, true);
        try (Workload a = Mix.generate(spec, 9, RamAllocator.shared());
                Workload b = Mix.generate(spec, 9, RamAllocator.shared());
                Workload c = Mix.generate(spec, 10, RamAllocator.shared())) {
            assertThat(TraceAssertions.identical(a, b)).isTrue();
            assertThat(TraceAssertions.identical(a, c)).isFalse();
        }
        assertThat(MixSpec.random(6, 3, 5, true)).isEqualTo(spec);
        assertThat(MixSpec.random(6, 4, 5, true)).isNotEqualTo(spec);
    }

    @Test
    void inconsistentSpecsAreRefused() {
        MixSpec.Receiver r = new MixSpec.Receiver("r", 3, 2);
        assertThatThrownBy(() -> new MixSpec(List.of(new MixSpec.Worker("w", 3, 2, 2, 1, 0, List.of()))))
                .hasMessageContaining("'w' sends on range16 but the mix has no range16 table");
        assertThatThrownBy(() -> new MixSpec(
                        List.of(new MixSpec.Worker("w", 3, 2, 2, 0, 1, List.of()), new MixSpec.RangeChecks())))
                .hasMessageContaining("no bitwise8 table");
        assertThatThrownBy(() -> new MixSpec(
                        List.of(r, new MixSpec.Worker("w", 3, 0, 2, 0, 0, List.of(new MixSpec.Lookup("q", 2))))))
                .hasMessageContaining("'q', which is not a receiver");
        assertThatThrownBy(() -> new MixSpec(
                        List.of(r, new MixSpec.Worker("w", 3, 0, 2, 0, 0, List.of(new MixSpec.Lookup("r", 3))))))
                .hasMessageContaining("holds 2-tuples");
        assertThatThrownBy(() -> new MixSpec(List.of(r, r))).hasMessageContaining("two tables named 'r'");
        assertThatThrownBy(() -> new MixSpec.Worker("w", 3, 0, 2, 0, 0, List.of()))
                .hasMessageContaining("no columns");
        assertThatThrownBy(() -> new MixSpec.Worker("w", 3, 4, 4, 0, 0, List.of()))
                .hasMessageContaining("degree 4");
    }

    @Property(tries = 25)
    void randomMixesWithoutPreprocessedTablesAreValid(
            @ForAll @IntRange(min = 1, max = 8) int tables, @ForAll long seed) {
        MixSpec spec = MixSpec.random(tables, seed, 6, false);
        checkRandom(spec, seed);
    }

    @Property(tries = 5)
    void randomMixesWithPreprocessedTablesAreValid(@ForAll @IntRange(min = 1, max = 6) int tables, @ForAll long seed) {
        MixSpec spec = MixSpec.random(tables, seed, 6, true);
        assertThat(spec.tables()).hasSize(tables + 2);
        checkRandom(spec, seed);
    }

    private static void checkRandom(MixSpec spec, long seed) {
        for (Air air : Mix.airs(spec)) {
            assertThat(air.maxDegree()).as(air.name()).isLessThanOrEqualTo(3);
        }
        try (Workload w = Mix.generate(spec, seed, RamAllocator.shared())) {
            assertThat(w.shapes()).isEqualTo(spec.shapes());
            WorkloadChecks.checkAll(w, seed ^ 1);
        }
    }
}
