package net.beaconcontroller.cluster.internal;

/** The cluster's threads. */
final class Threads {
    private Threads() {
    }

    /**
     * A thread that takes no inheritable thread-locals from the thread that happens to create it. The cluster's
     * threads are created when the bundle starts, which may be in a console command's job (`start`): the Gogo
     * shell keeps each job's output streams in inheritable thread-locals, so the cluster's threads, and Hazelcast's,
     * which they create in turn, would write their log lines into a job that has ended. That is the suspected cause of
     * a console that printed nothing more after the cluster bundle was stopped and started from it (about one e2e run
     * in four; not proven).
     */
    static Thread named(Runnable task, String name) {
        return new Thread(null, task, name, 0, false);
    }
}
