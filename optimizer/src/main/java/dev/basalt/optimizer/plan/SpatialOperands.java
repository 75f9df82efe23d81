package dev.basalt.optimizer.plan;

import java.util.List;

import org.eclipse.rdf4j.query.algebra.ValueExpr;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.access.SpatialIndexReader;
import dev.basalt.optimizer.exec.SpatialScan;
import dev.basalt.optimizer.exec.SpatialWindow;

/**
 * Adds a {@link SpatialScan} operand to a join group for each variable a pulled-up FILTER narrows
 * spatially ({@link SpatialPredicates}), when the source has a spatial index and a statement
 * pattern of the group binds the variable (so every value it can take is a stored term the index
 * knows). The join orderer then places it like any operand, by its estimate (index entries in the
 * window's cells); the FILTER stays and decides exactly. One operand per variable: the first
 * narrowable conjunct.
 *
 * <p>Used by the one thread compiling a query.
 */
final class SpatialOperands {
    private final QuadSource source;
    private final VarTable vars;

    SpatialOperands(QuadSource source, VarTable vars) {
        this.source = source;
        this.vars = vars;
    }

    void addOperands(ValueExpr condition, List<JoinOperand> atoms) {
        SpatialIndexReader index = source.spatialIndex();
        if (index == null) {
            return;
        }
        for (SpatialPredicates.Predicate p : SpatialPredicates.of(condition)) {
            int slot = vars.find(p.variable());
            if (slot < 0 || hasSpatialOperand(atoms, slot)) {
                continue;
            }
            JoinOperand binder = null;
            for (JoinOperand a : atoms) {
                if (a.scan != null && a.assured.contains(slot)) {
                    binder = a;
                    break;
                }
            }
            if (binder == null) {
                continue;
            }
            SpatialScan op = new SpatialScan(slot, p.variable(), p.function(), p.geometry(), p.radius(), p.unit(),
                    binder.scan);
            SpatialWindow w = op.window(null);
            if (w == null) {
                continue; // a distance from a geometry other than a point: the index has no window for it
            }
            op.setEstimate(w.boxes().isEmpty() ? 1 : index.estimate(w.boxes()));
            SlotSet s = new SlotSet();
            s.add(slot);
            atoms.add(new JoinOperand(null, op, s, s, null));
        }
    }

    private static boolean hasSpatialOperand(List<JoinOperand> atoms, int slot) {
        for (JoinOperand a : atoms) {
            if (a.op instanceof SpatialScan && a.assured.contains(slot)) {
                return true;
            }
        }
        return false;
    }
}
