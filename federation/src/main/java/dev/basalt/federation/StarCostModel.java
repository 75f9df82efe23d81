package dev.basalt.federation;

import java.util.Set;

import org.eclipse.rdf4j.federated.optimizer.DefaultFedXCostModel;
import org.eclipse.rdf4j.federated.optimizer.FedXCostModel;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

/**
 * FedX's join-order cost model, taught what a {@link StarGroup} costs; everything else is priced by
 * FedX's own model. FedX orders a join greedily by these costs, adding each chosen argument's
 * variables to the bound set. A star is cheapest when it goes to one member: its subject is a
 * constant, or bound by the arguments already chosen (each row then goes to the subject's owner).
 * Next come stars connected to what is bound (bound joins), cheaper with fewer new variables;
 * a first star is cheaper the more of its objects are constants. A star sharing no variable with
 * what is bound would be a cross product and comes last. Stateless, so its one {@link #INSTANCE} is shared by
 * every query's thread.
 */
final class StarCostModel implements FedXCostModel {
    static final StarCostModel INSTANCE = new StarCostModel();

    @Override
    public double estimateCost(TupleExpr expr, Set<String> joinVars) {
        if (!(expr instanceof StarGroup star)) {
            return DefaultFedXCostModel.INSTANCE.estimateCost(expr, joinVars);
        }
        if (star.subjectValue() != null) {
            return 1;
        }
        if (joinVars.contains(star.subjectVar())) {
            return 2;
        }
        if (joinVars.isEmpty()) {
            return 20 - Math.min(9, star.constantObjectCount());
        }
        int unbound = 0;
        for (String var : star.getFreeVars()) {
            if (!joinVars.contains(var)) {
                unbound++;
            }
        }
        return unbound == star.getFreeVars().size() ? 1000 : 50 + unbound;
    }
}
