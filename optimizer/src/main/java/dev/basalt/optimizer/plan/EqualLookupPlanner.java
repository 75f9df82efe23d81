package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.Compare.CompareOp;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.exec.PatternScan;

/**
 * Lets a pattern of a join group look its matches up by a variable that a FILTER of the group requires
 * equal to one of its own: for a top-level conjunct {@code ?a = ?b} of a filter, a pattern with {@code ?b}
 * free in a position takes, when it is opened with {@code ?a} bound to an IRI or a blank node, that term
 * in the position ({@link PatternScan#withEqualSlots}), so BSBM BI2's
 * {@code :P :productFeature ?feature . ?other :productFeature ?otherFeature FILTER(?feature = ?otherFeature)}
 * reads each feature's products instead of every product's features per feature. The estimator counts the
 * position as bound once {@code ?a} is, and the orderer counts the pattern as connected to {@code ?a}. The
 * filter stays and decides every row; a literal {@code ?a} (equal by value to other terms) is scanned
 * free. Stateless, so thread-safe.
 */
final class EqualLookupPlanner {
    private EqualLookupPlanner() {
    }

    /** Replaces the patterns of {@code atoms} that an equality of {@code filters} lets look up. */
    static void apply(List<JoinOperand> atoms, List<GroupFilter> filters, VarTable vars) {
        List<String[]> pairs = new ArrayList<>();
        for (GroupFilter f : filters) {
            if (f.condition() != null) {
                collect(f.condition(), pairs);
            }
        }
        if (pairs.isEmpty()) {
            return;
        }
        for (int i = 0; i < atoms.size(); i++) {
            JoinOperand a = atoms.get(i);
            PatternScan eq = a.scan == null ? null : withEqualSlots(a.scan, pairs, vars);
            if (eq != null) {
                atoms.set(i, new JoinOperand(eq, eq, a.assured, a.mentioned, a.expr));
            }
        }
    }

    private static PatternScan withEqualSlots(PatternScan scan, List<String[]> pairs, VarTable vars) {
        int[] slots = scan.slots();
        long[] constants = scan.constants();
        int[] equal = new int[4];
        Arrays.fill(equal, -1);
        boolean any = false;
        for (int i = 0; i < 4; i++) {
            if (slots[i] < 0 || constants[i] != 0) {
                continue;
            }
            String name = vars.name(slots[i]);
            for (String[] p : pairs) {
                String other = p[0].equals(name) ? p[1] : p[1].equals(name) ? p[0] : null;
                int os = other == null ? -1 : vars.find(other);
                if (os >= 0 && !contains(slots, os)) {
                    equal[i] = os;
                    any = true;
                    break;
                }
            }
        }
        return any ? scan.withEqualSlots(equal) : null;
    }

    private static boolean contains(int[] slots, int slot) {
        for (int s : slots) {
            if (s == slot) {
                return true;
            }
        }
        return false;
    }

    /** The variable pairs {@code ?a = ?b} among the conjuncts of {@code e}. */
    private static void collect(ValueExpr e, List<String[]> pairs) {
        if (e instanceof And and) {
            collect(and.getLeftArg(), pairs);
            collect(and.getRightArg(), pairs);
        } else if (e instanceof Compare c && c.getOperator() == CompareOp.EQ && c.getLeftArg() instanceof Var l
                && c.getRightArg() instanceof Var r && !l.hasValue() && !r.hasValue() && !l.getName().equals(r.getName())) {
            pairs.add(new String[] { l.getName(), r.getName() });
        }
    }
}
