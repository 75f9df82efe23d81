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
                .withConfig(LoadTestData.config()).withBatchStatements(25_000).withSortBufferQuads(150_000)
                .withProgress(progress));
        System.out.println("DONE " + r.commit());
        System.out.flush();
    }
}
