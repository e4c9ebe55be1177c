package net.beaconcontroller.cbench;

import java.util.List;

/**
 * What a generator run measured: one {@link Result} per RESULT line (one, or one per switch count with
 * {@code -r}).
 *
 * @param results             in the order printed
 * @param switches            switches the run connected
 * @param handshakesCompleted switches that received FEATURES_REQUEST
 */
public record CbenchReport(List<Result> results, int switches, int handshakesCompleted) {

    /** Copies the list so the report stays as measured. */
    public CbenchReport {
        results = List.copyOf(results);
    }

    /**
     * The averaged, non-warm-up, non-cool-down loops for one number of switches.
     *
     * @param switches     switches under test
     * @param tests        loops averaged
     * @param min          slowest loop, responses/s
     * @param max          fastest loop, responses/s
     * @param avg          mean over the averaged loops, responses/s
     * @param stdev        population standard deviation, responses/s
     * @param responses    responses counted in the averaged loops
     * @param elapsedMs    measured time of the averaged loops
     * @param cpuPercent   CPU time of the generator's I/O thread over those loops, in % of one core (-1 when the
     *                     JVM cannot tell): near 100 means the generator, not the controller, set the pace
     */
    public record Result(int switches, int tests, double min, double max, double avg, double stdev, long responses,
            double elapsedMs, double cpuPercent) {
    }

    /** The result for the most switches, the one a plain (non-ranged) run is about. */
    public Result last() {
        return results.get(results.size() - 1);
    }

    /** Whether every switch got through the handshake. */
    public boolean allHandshakesCompleted() {
        return handshakesCompleted == switches;
    }
}
