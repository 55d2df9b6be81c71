package io.jstark.examples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The shape of a table mix: which tables, how tall, how wide, who sends what to whom. {@link Mix} turns a
 * spec into table definitions and seeded, balanced traces. Table kinds:
 * <ul>
 *   <li>{@link Worker}: {@code stateColumns} columns evolving by a degree-2 or degree-3 rule from a random
 *       first row (the compute load), plus columns sent on buses: random 16-bit limbs on {@code range16},
 *       byte pairs with their xor on {@code bitwise8}, and tuples looked up in receivers (each behind a
 *       random boolean selector). A compute-heavy table is a worker without sends, a sender table one with
 *       few or no state columns;
 *   <li>{@link Receiver}: a memory-like table listing distinct tuples (key = row index, then random values)
 *       with the multiplicity the workers looked each one up with, on its own bus {@code lookup:<name>};
 *   <li>{@link RangeChecks} and {@link Bitwise}: the two preprocessed 2^16-row tables.
 * </ul>
 */
public record MixSpec(List<MixSpec.Table> tables) {
    /** Heights a scaled preset never goes below. */
    public static final int MIN_SCALED_LOG_HEIGHT = 3;
    /** The zkvm preset's scale that a demo or a default benchmark uses: tallest table 2^16 x 80. */
    public static final int DEFAULT_ZKVM_SCALE = 4;
    /** log2 of the zkvm preset's tallest table at scale 0. */
    public static final int ZKVM_MAX_LOG_HEIGHT = 20;

    public sealed interface Table permits Worker, Receiver, RangeChecks, Bitwise {
        String name();

        int logHeight();
    }

    /** A lookup of {@code arity}-tuples in the receiver called {@code receiver}. */
    public record Lookup(String receiver, int arity) {
        public Lookup {
            if (arity < 1) {
                throw new IllegalArgumentException("lookup into '" + receiver + "': arity " + arity + " < 1");
            }
        }
    }

    /**
     * A table with state columns s_j (j mod w): degree 2: s_j' = s_j * s_{j+1} + s_{j+2} + j; degree 3:
     * s_j' = s_j * s_{j+1} * s_{j+2} + s_{j+3} + j. Then rangeLimbs limb columns, bytePairs (a, b, a xor b)
     * triples, and for each lookup a selector and its tuple columns.
     */
    public record Worker(
            String name,
            int logHeight,
            int stateColumns,
            int degree,
            int rangeLimbs,
            int bytePairs,
            List<Lookup> lookups)
            implements Table {
        public Worker {
            lookups = List.copyOf(lookups);
            checkName(name);
            checkLogHeight(name, logHeight);
            if (stateColumns < 0 || rangeLimbs < 0 || bytePairs < 0) {
                throw new IllegalArgumentException("table '" + name + "': negative column count");
            }
            if (degree != 2 && degree != 3) {
                throw new IllegalArgumentException("table '" + name + "': state rule degree " + degree + " (2 or 3)");
            }
            if (widthOf(stateColumns, rangeLimbs, bytePairs, lookups) < 1) {
                throw new IllegalArgumentException("table '" + name + "' has no columns");
            }
        }

        public int width() {
            return widthOf(stateColumns, rangeLimbs, bytePairs, lookups);
        }

        private static int widthOf(int stateColumns, int rangeLimbs, int bytePairs, List<Lookup> lookups) {
            int w = stateColumns + rangeLimbs + 3 * bytePairs;
            for (Lookup l : lookups) {
                w += 1 + l.arity();
            }
            return w;
        }

        Worker withLogHeight(int log) {
            return new Worker(name, log, stateColumns, degree, rangeLimbs, bytePairs, lookups);
        }
    }

    /** Distinct tuples of {@code arity} values (the first is the key, the row index) with multiplicities. */
    public record Receiver(String name, int logHeight, int arity) implements Table {
        public Receiver {
            checkName(name);
            checkLogHeight(name, logHeight);
            if (arity < 1) {
                throw new IllegalArgumentException("table '" + name + "': arity " + arity + " < 1");
            }
        }

        public int width() {
            return arity + 1;
        }

        Receiver withLogHeight(int log) {
            return new Receiver(name, log, arity);
        }
    }

    /** The 2^16-row range-check table ({@link RangeTable}). */
    public record RangeChecks() implements Table {
        @Override
        public String name() {
            return RangeTable.NAME;
        }

        @Override
        public int logHeight() {
            return RangeTable.LOG_HEIGHT;
        }
    }

    /** The 2^16-row 8-bit xor table ({@link BitwiseTable}). */
    public record Bitwise() implements Table {
        @Override
        public String name() {
            return BitwiseTable.NAME;
        }

        @Override
        public int logHeight() {
            return BitwiseTable.LOG_HEIGHT;
        }
    }

    public MixSpec {
        tables = List.copyOf(tables);
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("a mix needs at least one table");
        }
        Set<String> names = new HashSet<>();
        Map<String, Receiver> receivers = new HashMap<>();
        boolean range = false;
        boolean bitwise = false;
        for (Table t : tables) {
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("mix: two tables named '" + t.name() + "'");
            }
            switch (t) {
                case Receiver r -> receivers.put(r.name(), r);
                case RangeChecks r -> range = true;
                case Bitwise b -> bitwise = true;
                case Worker w -> {}
            }
        }
        for (Table t : tables) {
            if (!(t instanceof Worker w)) {
                continue;
            }
            if (w.rangeLimbs() > 0 && !range) {
                throw new IllegalArgumentException(
                        "mix: table '" + w.name() + "' sends on range16 but the mix has no range16 table");
            }
            if (w.bytePairs() > 0 && !bitwise) {
                throw new IllegalArgumentException(
                        "mix: table '" + w.name() + "' sends on bitwise8 but the mix has no bitwise8 table");
            }
            for (Lookup l : w.lookups()) {
                Receiver r = receivers.get(l.receiver());
                if (r == null) {
                    throw new IllegalArgumentException("mix: table '" + w.name() + "' looks up tuples in '"
                            + l.receiver() + "', which is not a receiver of this mix");
                }
                if (r.arity() != l.arity()) {
                    throw new IllegalArgumentException("mix: table '" + w.name() + "' looks up " + l.arity()
                            + "-tuples in '" + l.receiver() + "', which holds " + r.arity() + "-tuples");
                }
            }
        }
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("mix table name must not be blank");
        }
    }

    private static void checkLogHeight(String name, int logHeight) {
        if (logHeight < 1 || logHeight > 30) {
            throw new IllegalArgumentException(
                    "table '" + name + "': height 2^" + logHeight + " out of range 2^1..2^30");
        }
    }

    /** Tables in table-index order with their definitions and heights; nothing is allocated. */
    public List<TableShape> shapes() {
        List<TableShape> shapes = new ArrayList<>(tables.size());
        for (Table t : tables) {
            shapes.add(new TableShape(t.name(), Mix.airOf(t), t.logHeight()));
        }
        return shapes;
    }

    /** Sum of rows x main columns over all tables. */
    public long mainCells() {
        long cells = 0;
        for (TableShape s : shapes()) {
            cells += s.mainCells();
        }
        return cells;
    }

    /**
     * A zkVM-like mix: one tall, wide CPU-like table (2^20 x 80 at scale 0), mid-size memory-like receivers
     * and workers (2^16..2^18), many small tables (2^10..2^14) and the two preprocessed 2^16 tables. Widths
     * range from 4 to 80. {@code scale} divides every non-preprocessed height by 2^scale (never below
     * 2^{@value #MIN_SCALED_LOG_HEIGHT}); the table definitions do not depend on it.
     */
    public static MixSpec zkvm(int scale) {
        if (scale < 0 || scale > ZKVM_MAX_LOG_HEIGHT - MIN_SCALED_LOG_HEIGHT) {
            throw new IllegalArgumentException(
                    "zkvm mix: scale " + scale + " outside 0.." + (ZKVM_MAX_LOG_HEIGHT - MIN_SCALED_LOG_HEIGHT));
        }
        Lookup ram = new Lookup("ram", 4);
        Lookup program = new Lookup("program", 3);
        Lookup registers = new Lookup("registers", 3);
        Lookup rom = new Lookup("rom", 3);
        List<Table> full = List.of(
                // width 47 + 8 + 3*4 + (1+4) + (1+3) + (1+3) = 80
                new Worker("cpu", 20, 47, 3, 8, 4, List.of(ram, program, registers)),
                new Receiver("ram", 18, 4),
                new Receiver("program", 17, 3),
                new Receiver("registers", 16, 3),
                // 24 + 4 + 6 + 4 = 38
                new Worker("alu", 18, 24, 2, 4, 2, List.of(registers)),
                new Worker("hash", 17, 64, 3, 0, 0, List.of()),
                // 2 + 12 + 4 = 18
                new Worker("shift", 16, 0, 2, 2, 4, List.of(program)),
                new Receiver("rom", 12, 3),
                // 8 + 2 + 4 = 14
                new Worker("syscall", 14, 8, 2, 2, 0, List.of(rom)),
                new Worker("keccak-round", 13, 16, 3, 0, 0, List.of()),
                new Worker("compute-a", 12, 8, 2, 0, 0, List.of()),
                new Worker("compute-b", 11, 8, 2, 0, 0, List.of()),
                new Worker("compute-c", 10, 4, 3, 0, 0, List.of()),
                // 2 + 6 + 4 = 12
                new Worker("bytes", 10, 0, 2, 2, 2, List.of(rom)),
                new RangeChecks(),
                new Bitwise());
        List<Table> scaled = new ArrayList<>(full.size());
        for (Table t : full) {
            int log = Math.max(MIN_SCALED_LOG_HEIGHT, t.logHeight() - scale);
            scaled.add(
                    switch (t) {
                        case Worker w -> w.withLogHeight(log);
                        case Receiver r -> r.withLogHeight(log);
                        case RangeChecks r -> r;
                        case Bitwise b -> b;
                    });
        }
        return new MixSpec(scaled);
    }

    /**
     * A random small mix for property tests: {@code tables} non-preprocessed tables of heights 2^1 ..
     * 2^maxLogHeight (about a third receivers, the rest workers with random state, degree and lookups),
     * plus the two preprocessed tables when {@code withPreprocessed} (and only then limbs and byte pairs).
     */
    public static MixSpec random(int tables, long seed, int maxLogHeight, boolean withPreprocessed) {
        if (tables < 1 || maxLogHeight < 1 || maxLogHeight > 20) {
            throw new IllegalArgumentException("random mix: " + tables + " tables, max height 2^" + maxLogHeight);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        boolean[] isReceiver = new boolean[tables];
        int receiverCount = tables == 1 ? 0 : 1 + rnd.nextInt(Math.max(1, tables / 3));
        for (int placed = 0; placed < receiverCount; ) {
            int at = rnd.nextInt(tables);
            if (!isReceiver[at]) {
                isReceiver[at] = true;
                placed++;
            }
        }
        Table[] out = new Table[tables];
        List<Receiver> receivers = new ArrayList<>();
        for (int i = 0; i < tables; i++) {
            if (isReceiver[i]) {
                Receiver r = new Receiver("t" + i, 1 + rnd.nextInt(maxLogHeight), 1 + rnd.nextInt(4));
                receivers.add(r);
                out[i] = r;
            }
        }
        for (int i = 0; i < tables; i++) {
            if (isReceiver[i]) {
                continue;
            }
            int state = rnd.nextInt(7);
            int degree = 2 + rnd.nextInt(2);
            int limbs = withPreprocessed ? rnd.nextInt(4) : 0;
            int pairs = withPreprocessed ? rnd.nextInt(3) : 0;
            List<Lookup> lookups = new ArrayList<>();
            int lookupCount = receivers.isEmpty() ? 0 : rnd.nextInt(3);
            for (int l = 0; l < lookupCount; l++) {
                Receiver r = receivers.get(rnd.nextInt(receivers.size()));
                lookups.add(new Lookup(r.name(), r.arity()));
            }
            if (state + limbs + pairs + lookups.size() == 0) {
                state = 1;
            }
            out[i] = new Worker("t" + i, 1 + rnd.nextInt(maxLogHeight), state, degree, limbs, pairs, lookups);
        }
        List<Table> all = new ArrayList<>(List.of(out));
        if (withPreprocessed) {
            all.add(new RangeChecks());
            all.add(new Bitwise());
        }
        return new MixSpec(all);
    }
}
