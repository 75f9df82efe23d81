import java.nio.file.*;
import java.util.*;
import dev.basalt.bench.bsbm.*;
import dev.basalt.bench.driver.QueryTemplate;

/** Writes BI1-0.rq ... BI8-(sets-1).rq: the BI queries for PRODUCTS products, seed 808, the parameter sets of `analytic --bi`. */
public class BiQueries {
    public static void main(String[] a) throws Exception {
        int products = Integer.parseInt(a[0]);
        long seed = 808;
        int sets = Integer.parseInt(a[1]);
        BsbmModel model = new BsbmModel(products, seed);
        for (QueryTemplate t : BsbmBiQueries.ALL) {
            int n = Integer.parseInt(t.name().substring(2));
            SplittableRandom r = new SplittableRandom(seed * 31 + 100 + n);
            for (int i = 0; i < sets; i++) {
                Files.writeString(Path.of(t.name() + "-" + i + ".rq"), t.instantiate(BsbmBiQueries.draw(model, n, r)));
            }
        }
    }
}
