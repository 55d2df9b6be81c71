package io.jstark.examples;

import static io.jstark.examples.Vm.ACC;
import static io.jstark.examples.Vm.ACTIVE;
import static io.jstark.examples.Vm.ADDR;
import static io.jstark.examples.Vm.CARRY;
import static io.jstark.examples.Vm.CLK;
import static io.jstark.examples.Vm.CPU;
import static io.jstark.examples.Vm.CPU_WITH_HASH;
import static io.jstark.examples.Vm.HASH_OUT;
import static io.jstark.examples.Vm.IS_HASH;
import static io.jstark.examples.Vm.MEMORY;
import static io.jstark.examples.Vm.M_ACTIVE;
import static io.jstark.examples.Vm.M_ADDR;
import static io.jstark.examples.Vm.M_DIFF;
import static io.jstark.examples.Vm.M_IS_WRITE;
import static io.jstark.examples.Vm.M_SAME_ADDR;
import static io.jstark.examples.Vm.M_TIME;
import static io.jstark.examples.Vm.M_VALUE;
import static io.jstark.examples.Vm.RES;
import static io.jstark.examples.Vm.VAL;
import static io.jstark.examples.Vm.WORD;
import static io.jstark.examples.Vm.cpuLogHeight;
import static io.jstark.examples.Vm.memoryLogHeight;

import io.jstark.examples.hash.KeccakAir;
import io.jstark.examples.hash.KeccakF;
import java.util.Arrays;
import java.util.SplittableRandom;

/** The {@link Vm}'s trace generation: the CPU's run of a seeded program, and the memory table it implies. */
final class VmTrace {
    private VmTrace() {}

    /**
     * Runs the seeded program: fills the CPU's columns (padding rows included), counts every value sent on
     * {@code range16} into {@code rangeCounts}, records each access's (addr, time) key and value, and the hash steps'
     * Keccak inputs.
     */
    static long[][] runCpu(
            int steps,
            int addressSpace,
            long seed,
            int hashEvery,
            long[] hashInputs,
            long[] rangeCounts,
            long[] accessKeys,
            long[] valueAtTime) {
        int rows = 1 << cpuLogHeight(steps);
        long[][] cpu = new long[(hashEvery == 0 ? CPU : CPU_WITH_HASH).mainWidth()][rows];
        long[] state = new long[KeccakF.LANES];
        SplittableRandom program = Seeds.stream(seed, 0);
        SplittableRandom initial = Seeds.stream(seed, 1);
        long[] memory = new long[addressSpace];
        for (int a = 0; a < addressSpace; a++) {
            memory[a] = initial.nextInt(WORD);
        }
        long acc = 0;
        for (int clk = 0; clk < steps; clk++) {
            int addr = program.nextInt(addressSpace);
            long val = memory[addr];
            long sum = acc + val;
            long res = sum & (WORD - 1);
            cpu[CLK][clk] = clk;
            cpu[ADDR][clk] = addr;
            cpu[VAL][clk] = val;
            cpu[ACC][clk] = acc;
            cpu[CARRY][clk] = sum >>> 16;
            cpu[ACTIVE][clk] = 1;
            if (hashEvery > 0 && clk % hashEvery == hashEvery - 1) {
                Arrays.fill(state, 0L);
                state[0] = acc;
                System.arraycopy(state, 0, hashInputs, clk / hashEvery * KeccakF.LANES, KeccakF.LANES);
                KeccakF.permute(state);
                for (int lane = 0; lane < KeccakF.LANES; lane++) {
                    for (int k = 0; k < KeccakAir.LIMBS; k++) {
                        cpu[HASH_OUT + lane * KeccakAir.LIMBS + k][clk] =
                                state[lane] >>> (KeccakAir.LIMB_BITS * k) & 0xFFFF;
                    }
                }
                res = state[0] & (WORD - 1);
                cpu[IS_HASH][clk] = 1;
                cpu[CARRY][clk] = 0;
            }
            cpu[RES][clk] = res;
            RangeTable.count(rangeCounts, res);
            RangeTable.count(rangeCounts, val);
            int read = 2 * clk;
            accessKeys[read] = (long) addr << 16 | read;
            valueAtTime[read] = val;
            accessKeys[read + 1] = (long) addr << 16 | (read + 1);
            valueAtTime[read + 1] = res;
            memory[addr] = res;
            acc = res;
        }
        for (int clk = steps; clk < rows; clk++) {
            cpu[CLK][clk] = clk;
            cpu[ACC][clk] = acc;
            cpu[RES][clk] = acc;
        }
        return cpu;
    }

    /** The memory table: the accesses sorted by (addr, time), then padding; counts each gap sent on range16. */
    static long[][] sortMemory(int steps, long[] accessKeys, long[] valueAtTime, long[] rangeCounts) {
        int rows = 1 << memoryLogHeight(steps);
        int accesses = accessKeys.length;
        long[][] mem = new long[MEMORY.mainWidth()][rows];
        Arrays.sort(accessKeys);
        for (int i = 0; i < accesses; i++) {
            int time = (int) (accessKeys[i] & (WORD - 1));
            mem[M_ADDR][i] = accessKeys[i] >>> 16;
            mem[M_TIME][i] = time;
            mem[M_VALUE][i] = valueAtTime[time];
            mem[M_IS_WRITE][i] = time & 1;
            mem[M_ACTIVE][i] = 1;
        }
        long nextAddr = accesses == 0 ? 0 : mem[M_ADDR][accesses - 1] + 1;
        for (int i = accesses; i < rows; i++) {
            mem[M_ADDR][i] = nextAddr++;
        }
        for (int i = 0; i + 1 < rows; i++) {
            boolean same = i + 1 < accesses && mem[M_ADDR][i + 1] == mem[M_ADDR][i];
            mem[M_SAME_ADDR][i] = same ? 1 : 0;
            mem[M_DIFF][i] = same ? mem[M_TIME][i + 1] - mem[M_TIME][i] - 1 : mem[M_ADDR][i + 1] - mem[M_ADDR][i] - 1;
        }
        for (int i = 0; i < accesses; i++) {
            RangeTable.count(rangeCounts, mem[M_DIFF][i]);
        }
        return mem;
    }
}
