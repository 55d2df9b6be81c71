package io.jstark.air.program;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compiled engine's layout: input arrays, step cuts, spill slots and outputs, before any code is generated. */
class RowPlanTest {
    private static final Expr X = new Expr.MainCell(0, 0);
    private static final Expr Y = new Expr.MainCell(1, 0);
    private static final Expr AUX = new Expr.AuxCell(0, 0);

    @Test
    void smallStepsSpillValuesAndReuseTheirSlots() {
        // a chain of 40 products, each read by the next and by the final sum: with one product per step every
        // product is read by a later step, so it is spilled, and the sum's partial values free slots as it goes
        Expr x = new Expr.MainCell(0, 0);
        List<Expr> products = new ArrayList<>();
        Expr p = x;
        for (int i = 0; i < 40; i++) {
            p = p.mul(x).add(i);
            products.add(p);
        }
        Expr sum = products.getFirst();
        for (Expr e : products.subList(1, products.size())) {
            sum = sum.add(e);
        }
        ConstraintProgram program = ConstraintProgram.compile(List.of(sum));
        RowPlan plan = program.plan(1);
        assertThat(plan.steps()).isEqualTo(program.instructionCount());
        assertThat(plan.spillSlots).isPositive().isLessThan(program.instructionCount());
    }

    @Test
    void aBaseLeafTakesOneInputArrayAndAnExtensionLeafThree() {
        ConstraintProgram program = ConstraintProgram.compile(List.of(X.mul(AUX).add(Y)));
        RowPlan plan = program.plan(RowPlan.STEP_BUDGET);
        assertThat(plan.inputLimbs).isEqualTo(5);
        List<Integer> firstArrays = new ArrayList<>();
        for (int node = 0; node < plan.nodes.length; node++) {
            if (plan.inputLimb[node] >= 0) {
                firstArrays.add(plan.inputLimb[node]);
            } else {
                assertThat(plan.nodes[node].op).isNotEqualTo(ProgramGraph.LEAF);
            }
        }
        // x, then the aux cell's three limbs, then y: in the order the program loads them
        assertThat(firstArrays).containsExactly(0, 1, 4);
    }

    @Test
    void oneStepHoldsEveryInstructionWithinTheBudgetAndNothingIsSpilled() {
        ConstraintProgram program =
                ConstraintProgram.compile(List.of(X.mul(Y).add(X).sub(Y.neg())));
        RowPlan plan = program.plan(RowPlan.STEP_BUDGET);
        assertThat(plan.steps()).isEqualTo(1);
        assertThat(plan.stepStart).containsExactly(0, program.instructionCount());
        assertThat(plan.spillSlots).isZero();
        assertThat(plan.spillSlot).containsOnly(-1);
    }

    @Test
    void aStepEndsBeforeTheInstructionThatWouldExceedTheBudget() {
        // x*y, (x*y)+x, ... each base-field: a product estimated 146 bytes, a sum 76
        ConstraintProgram program =
                ConstraintProgram.compile(List.of(X.mul(Y).add(X).add(Y)));
        assertThat(program.plan(146 + 76).stepStart).containsExactly(0, 2, 3);
        assertThat(program.plan(146).stepStart).containsExactly(0, 1, 2, 3);
    }

    @Test
    void exactlyTheValuesReadByALaterStepAreSpilledAndNoTwoLiveAtOnceShareASlot() {
        ConstraintProgram program = ConstraintProgram.compile(List.of(mixedChain()));
        RowPlan plan = program.plan(1);
        int[] instructions = plan.instructions;
        // one instruction per step, so an instruction's index is its step
        assertThat(plan.steps()).isEqualTo(instructions.length);
        int spilledLimbs = 0;
        for (int idx = 0; idx < instructions.length; idx++) {
            int node = instructions[idx];
            boolean readLater = plan.lastUse[node] > idx;
            assertThat(plan.spillSlot[node] >= 0)
                    .as("instruction %d spilled", idx)
                    .isEqualTo(readLater);
            if (readLater) {
                spilledLimbs += plan.nodes[node].type.limbs();
                assertThat(plan.spillSlot[node] + plan.nodes[node].type.limbs()).isLessThanOrEqualTo(plan.spillSlots);
            }
        }
        for (int i = 0; i < instructions.length; i++) {
            for (int j = i + 1; j < instructions.length; j++) {
                int a = instructions[i];
                int b = instructions[j];
                if (plan.spillSlot[a] >= 0 && plan.spillSlot[b] >= 0 && j <= plan.lastUse[a]) {
                    assertThat(slotsOverlap(plan, a, b))
                            .as("instructions %d and %d are live at once", i, j)
                            .isFalse();
                }
            }
        }
        // a slot freed by a value's last reader is taken again by a later value
        assertThat(plan.spillSlots).isLessThan(spilledLimbs);
    }

    @Test
    void aNodeThatIsSeveralOutputsListsThemAll() {
        Expr product = X.mul(Y);
        ConstraintProgram program = ConstraintProgram.compile(List.of(product, X.add(Y), X.mul(Y)));
        RowPlan plan = program.plan(RowPlan.STEP_BUDGET);
        int productNode = plan.outputNodes[0];
        assertThat(plan.outputsOf[productNode]).containsExactly(0, 2);
        assertThat(plan.outputsOf[plan.outputNodes[1]]).containsExactly(1);
    }

    private static boolean slotsOverlap(RowPlan plan, int a, int b) {
        int aEnd = plan.spillSlot[a] + plan.nodes[a].type.limbs();
        int bEnd = plan.spillSlot[b] + plan.nodes[b].type.limbs();
        return plan.spillSlot[a] < bEnd && plan.spillSlot[b] < aEnd;
    }

    /** Products and sums of base-field values, then of an aux cell's extension values, each read more than once. */
    private static Expr mixedChain() {
        Expr a = X.mul(Y);
        Expr b = a.add(X);
        Expr c = a.mul(a);
        Expr d = b.add(c);
        Expr e = d.mul(AUX);
        Expr f = e.add(d);
        return f.mul(e).add(b);
    }
}
