package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.examples.hash.KeccakAir;
import io.jstark.examples.hash.KeccakF;
import io.jstark.examples.hash.KeccakTrace;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.List;

/**
 * "vm": a small accumulator machine proven as three tables of different heights and widths, tied
 * together by two buses.
 *
 * <p><b>The machine.</b> Memory holds 16-bit words at addresses 0..A-1 (initial contents arbitrary). Step
 * clk reads the word at addr, adds it to the accumulator modulo 2^16 and writes the sum back to the same
 * address: {@code val = mem[addr]; res = (acc + val) mod 2^16; mem[addr] = res; acc = res}. A seeded
 * program picks a random address per step.
 *
 * <p><b>cpu</b> (2^k rows; columns clk, addr, val, acc, res, carry, active). One step per active row,
 * then padding rows (active = 0, val = carry = 0, res = acc):
 * <ul>
 *   <li>res = acc + val - 2^16 * carry with carry boolean; res and val are sent on {@code range16}, so the
 *       addition is exact 16-bit arithmetic;
 *   <li>acc' = acc + active * (res - acc): the accumulator follows res on active rows and stays on padding;
 *   <li>clk' = clk + 1 from clk = 0; acc = 0 on the first row; active is boolean and never restarts;
 *   <li>the public input final_acc equals the accumulator after the last row;
 *   <li>the read (addr, 2*clk, val, 0) and the write (addr, 2*clk + 1, res, 1) are sent on {@code memory}
 *       (multiplicity active).
 * </ul>
 *
 * <p><b>memory</b> (2^m rows, at least 2 * steps; columns addr, time, value, is_write, active, same_addr,
 * diff). Every access once, sorted by (addr, time), then padding rows (active = 0, address counting up
 * from the last one, everything else 0). Row i describes its relation to row i + 1:
 * <ul>
 *   <li>same_addr (boolean): the next row has the same address (addr' = addr);
 *   <li>diff = time' - time - 1 when same_addr, addr' - addr - 1 otherwise, sent on {@code range16}
 *       (multiplicity active): accesses are strictly increasing in (addr, time), so each address's
 *       accesses form one block in time order;
 *   <li>a read right after an access to the same address returns its value: same_addr * (1 - is_write')
 *       * (value' - value) = 0; the first access to an address may read any initial value;
 *   <li>it receives every (addr, time, value, is_write) the CPU sends (multiplicity active);
 *   <li>the last row has no successor: same_addr = diff = 0 there.
 * </ul>
 *
 * <p><b>range16</b> (2^16 rows, {@link RangeTable}) receives every value sent on {@code range16}.
 *
 * <p>Times are 2 * clk and 2 * clk + 1, so their gaps fit 16 bits as long as steps &lt;= 2^15. Every
 * constraint has degree &lt;= 3.
 */
public final class Vm implements Example {
    public static final String NAME = "vm";
    /** (addr, time, value, is_write) memory accesses. */
    public static final Bus MEMORY_BUS = Bus.of("memory", 4);

    public static final int MAX_STEPS = 1 << 15;
    public static final int DEFAULT_ADDRESS_SPACE = 32;
    /** The machine's word: 16-bit values, sums modulo 2^16. */
    static final int WORD = 1 << 16;

    /** CPU column indices. */
    public static final int CLK = 0, ADDR = 1, VAL = 2, ACC = 3, RES = 4, CARRY = 5, ACTIVE = 6;
    /** Columns of the CPU with the hash instruction ({@link #CPU_WITH_HASH}): the flag, then the 100 output limbs. */
    public static final int IS_HASH = 7, HASH_OUT = 8;
    /** Memory column indices. */
    public static final int M_ADDR = 0,
            M_TIME = 1,
            M_VALUE = 2,
            M_IS_WRITE = 3,
            M_ACTIVE = 4,
            M_SAME_ADDR = 5,
            M_DIFF = 6;

    public static final Air CPU = cpuAir("vm-cpu", false);
    /**
     * The CPU with a hash instruction: on a row with is_hash 1 the step computes res = the low 16 bits of
     * Keccak-f[1600] of the state whose lane (0, 0) is acc (all else 0) instead of acc + val, and sends that call
     * (input, output) on {@link KeccakAir#CALLS}, where a {@link KeccakAir#PRECOMPILE} table proves it.
     */
    public static final Air CPU_WITH_HASH = cpuAir("vm-cpu-keccak", true);

    public static final Air MEMORY = memoryAir();

    public static final String CPU_TABLE = "cpu";
    public static final String MEMORY_TABLE = "memory";
    /** The table of the hash calls, in a workload with the hash instruction. */
    public static final String KECCAK_TABLE = "keccak";

    private static Air cpuAir(String name, boolean hashes) {
        AirBuilder b = Air.builder(name);
        Expr.MainCell[] c = b.main("clk", "addr", "val", "acc", "res", "carry", "active");
        Expr.MainCell clk = c[CLK],
                addr = c[ADDR],
                val = c[VAL],
                acc = c[ACC],
                res = c[RES],
                carry = c[CARRY],
                active = c[ACTIVE];
        Expr finalAcc = b.publicInput("final_acc");
        Expr accAfter = acc.add(active.mul(res.sub(acc)));
        b.everyRow("active is boolean", active.mul(active.oneMinus()));
        b.transition("active never restarts", active.oneMinus().mul(active.next()));
        b.everyRow("carry is boolean", carry.mul(carry.oneMinus()));
        Expr addition = res.sub(acc.add(val).sub(carry.mul(WORD)));
        Expr.MainCell isHash = null;
        Expr.MainCell[] hashOut = null;
        if (hashes) {
            isHash = b.main("is_hash");
            hashOut = b.mainRange("hash_out", KeccakF.LANES * KeccakAir.LIMBS);
            b.everyRow("is_hash is boolean", isHash.mul(isHash.oneMinus()));
            b.everyRow("is_hash only on active rows", isHash.mul(active.oneMinus()));
            b.everyRow(
                    "res = acc + val - 2^16 carry unless hashing",
                    isHash.oneMinus().mul(addition));
            b.everyRow("a hash step's res is its output's first limb", isHash.mul(res.sub(hashOut[0])));
        } else {
            b.everyRow("res = acc + val - 2^16 carry", addition);
        }
        b.transition("acc' = res on active rows, acc on padding", acc.next().sub(accAfter));
        b.transition("clk' = clk + 1", clk.next().sub(clk).sub(1));
        b.first("clk starts at 0", clk);
        b.first("acc starts at 0", acc);
        b.last("final_acc is the accumulator after the last row", accAfter.sub(finalAcc));
        Expr time = clk.mul(2);
        b.send(MEMORY_BUS, active, addr, time, val, Expr.constant(0));
        b.send(MEMORY_BUS, active, addr, time.add(1), res, Expr.constant(1));
        b.send(RangeTable.BUS, active, res);
        b.send(RangeTable.BUS, active, val);
        if (hashes) {
            Expr[] call = new Expr[KeccakAir.CALLS.arity()];
            call[0] = acc;
            for (int i = 1; i < KeccakF.LANES * KeccakAir.LIMBS; i++) {
                call[i] = Expr.constant(0);
            }
            System.arraycopy(hashOut, 0, call, KeccakF.LANES * KeccakAir.LIMBS, hashOut.length);
            b.send(KeccakAir.CALLS, isHash, call);
        }
        return b.build();
    }

    private static Air memoryAir() {
        AirBuilder b = Air.builder("vm-memory");
        Expr.MainCell[] c = b.main("addr", "time", "value", "is_write", "active", "same_addr", "diff");
        Expr.MainCell addr = c[M_ADDR],
                time = c[M_TIME],
                value = c[M_VALUE],
                isWrite = c[M_IS_WRITE],
                active = c[M_ACTIVE],
                sameAddr = c[M_SAME_ADDR],
                diff = c[M_DIFF];
        b.everyRow("active is boolean", active.mul(active.oneMinus()));
        b.transition("active never restarts", active.oneMinus().mul(active.next()));
        b.everyRow("is_write is boolean", isWrite.mul(isWrite.oneMinus()));
        b.everyRow("same_addr is boolean", sameAddr.mul(sameAddr.oneMinus()));
        b.transition("same_addr means addr' = addr", sameAddr.mul(addr.next().sub(addr)));
        Expr timeGap = time.next().sub(time).sub(1);
        Expr addrGap = addr.next().sub(addr).sub(1);
        b.transition(
                "diff is the gap to the next access",
                diff.sub(sameAddr.mul(timeGap).add(sameAddr.oneMinus().mul(addrGap))));
        b.transition(
                "a read returns the last value at its address",
                sameAddr.mul(isWrite.next().oneMinus()).mul(value.next().sub(value)));
        b.last("the last row has no successor at its address", sameAddr);
        b.last("the last row has no gap", diff);
        b.receive(MEMORY_BUS, active, addr, time, value, isWrite);
        b.send(RangeTable.BUS, active, diff);
        return b.build();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "small accumulator VM: cpu, sorted memory and 16-bit range-check tables over buses 'memory' and 'range16'";
    }

    @Override
    public List<Air> airs() {
        return List.of(CPU, MEMORY, RangeTable.AIR);
    }

    @Override
    public String sizeParameter() {
        return "log2 of the CPU steps (" + DEFAULT_ADDRESS_SPACE + " addresses)";
    }

    @Override
    public int minLogSize() {
        return 1;
    }

    @Override
    public int maxLogSize() {
        return 15;
    }

    @Override
    public int defaultLogSize() {
        return 12;
    }

    @Override
    public List<TableShape> shapes(int logSize) {
        requireLogSize(logSize);
        return shapesForSteps(1 << logSize);
    }

    /** The table shapes of a run of {@code steps} steps. */
    public static List<TableShape> shapesForSteps(int steps) {
        return shapesForSteps(steps, 0);
    }

    /** The table shapes of a run of {@code steps} steps with a hash every {@code hashEvery} (0: none). */
    public static List<TableShape> shapesForSteps(int steps, int hashEvery) {
        requireSteps(steps);
        List<TableShape> shapes = List.of(
                new TableShape(CPU_TABLE, hashEvery == 0 ? CPU : CPU_WITH_HASH, cpuLogHeight(steps)),
                new TableShape(MEMORY_TABLE, MEMORY, memoryLogHeight(steps)),
                new TableShape(RangeTable.NAME, RangeTable.AIR, RangeTable.LOG_HEIGHT));
        if (hashEvery == 0) {
            return shapes;
        }
        List<TableShape> withKeccak = new java.util.ArrayList<>(shapes);
        withKeccak.add(new TableShape(KECCAK_TABLE, KeccakAir.PRECOMPILE, keccakLogHeight(steps, hashEvery)));
        return List.copyOf(withKeccak);
    }

    /** One row per step, at least 2. */
    public static int cpuLogHeight(int steps) {
        return ceilLog2(Math.max(2, steps));
    }

    /** One row per access (two per step), at least 2. */
    public static int memoryLogHeight(int steps) {
        return ceilLog2(Math.max(2, 2 * steps));
    }

    private static int ceilLog2(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    private static void requireSteps(int steps) {
        if (steps < 0 || steps > MAX_STEPS) {
            throw new IllegalArgumentException(
                    "vm: " + steps + " steps outside 0.." + MAX_STEPS + " (access times must stay below 2^16)");
        }
    }

    @Override
    public Workload generate(int logSize, long seed, BufferAllocator allocator) {
        requireLogSize(logSize);
        return workload(1 << logSize, DEFAULT_ADDRESS_SPACE, seed, allocator);
    }

    /**
     * Runs a seeded random program of {@code steps} steps over {@code addressSpace} addresses (initial
     * memory random 16-bit words) and returns its cpu, memory and range16 traces.
     */
    public static Workload workload(int steps, int addressSpace, long seed, BufferAllocator allocator) {
        return workload(steps, addressSpace, seed, 0, allocator);
    }

    /**
     * As {@link #workload(int, int, long, BufferAllocator)}, with every {@code hashEvery}-th step (0: none) the hash
     * instruction: the CPU is then {@link #CPU_WITH_HASH} and a fourth table, "keccak" ({@link KeccakAir#PRECOMPILE}),
     * proves the hash calls, at least 2^5 rows.
     */
    public static Workload workload(int steps, int addressSpace, long seed, int hashEvery, BufferAllocator allocator) {
        requireSteps(steps);
        if (hashEvery < 0) {
            throw new IllegalArgumentException("vm: a hash every " + hashEvery + " steps");
        }
        if (addressSpace < 1 || addressSpace > WORD) {
            throw new IllegalArgumentException("vm: address space " + addressSpace + " outside 1.." + WORD);
        }
        long[] rangeCounts = new long[RangeTable.ROWS];
        int accesses = 2 * steps;
        // an access is identified by its time: keys sort by (addr, time), values are looked up by time
        long[] accessKeys = new long[accesses];
        long[] valueAtTime = new long[accesses];
        long[] hashInputs = new long[hashEvery == 0 ? 0 : steps / hashEvery * KeccakF.LANES];
        long[][] cpu =
                VmTrace.runCpu(steps, addressSpace, seed, hashEvery, hashInputs, rangeCounts, accessKeys, valueAtTime);
        int last = cpu[ACC].length - 1;
        long finalAcc = cpu[ACTIVE][last] == 1 ? cpu[RES][last] : cpu[ACC][last];
        long[][] memory = VmTrace.sortMemory(steps, accessKeys, valueAtTime, rangeCounts);
        String label = NAME + "(steps=" + steps + ", addresses=" + addressSpace + ", seed=" + seed + ")";
        try (WorkloadBuilder builder = new WorkloadBuilder(label, hashEvery == 0 ? 3 : 4, allocator)) {
            builder.set(0, CPU_TABLE, hashEvery == 0 ? CPU : CPU_WITH_HASH, cpu, finalAcc);
            builder.set(1, MEMORY_TABLE, MEMORY, memory);
            builder.set(2, RangeTable.NAME, RangeTable.AIR, new long[][] {rangeCounts});
            if (hashEvery > 0) {
                Matrix keccak =
                        builder.allocate(3, KECCAK_TABLE, KeccakAir.PRECOMPILE, 1 << keccakLogHeight(steps, hashEvery));
                KeccakTrace.fill(keccak, hashInputs, WorkerPool.common());
                builder.set(3, KECCAK_TABLE, KeccakAir.PRECOMPILE);
            }
            return builder.build();
        }
    }

    /** The Keccak table's height: one permutation per hash step, at least one permutation's rows. */
    public static int keccakLogHeight(int steps, int hashEvery) {
        return KeccakTrace.logRows(Math.max(1, steps / hashEvery));
    }
}
