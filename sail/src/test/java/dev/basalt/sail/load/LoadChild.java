package dev.basalt.sail.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Child JVM of {@link LoadCrashTest}: bulk-loads one file and reports each step on standard
 * output ({@code EVENT n} per batch, index and commit, then {@code DONE commit}), so the parent can
 * kill it at a chosen moment.
 */
public final class LoadChild {
    /** Statements per batch: small, so that a load of the test's size has many batches and spilled runs. */
    static final int BATCH = 5_000;

    private LoadChild() {
    }

    public static void main(String[] args) {
        long[] events = { 0 };
        LoadProgress progress = new LoadProgress() {
            @Override
            public void parsing(long statements, long bytesRead, long totalBytes, Duration elapsed) {
                event();
            }

            @Override
            public void building(String index, int number, int of, Duration elapsed) {
                event();
            }

            @Override
            public void committing(Duration elapsed) {
                event();
            }

            private void event() {
                System.out.println("EVENT " + (++events[0]));
                System.out.flush();
            }
        };
        LoadResult r = BasaltLoader.load(Path.of(args[0]), List.of(Path.of(args[1])), LoadOptions.defaults()
                .withConfig(LoadTestData.config()).withBatchStatements(BATCH).withSortBufferQuads(30_000)
                .withChunkBytes(128 << 10).withParserThreads(2)
                .withProgress(progress));
        System.out.println("DONE " + r.commit());
        System.out.flush();
    }
}
