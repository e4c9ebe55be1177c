package net.beaconcontroller.util;

/** Beacon's threads. */
public final class Threads {
    private Threads() {
    }

    /**
     * A thread that takes no inheritable thread-locals from the thread that happens to create it. A bundle may start
     * inside a console command (`start`, `update`): the Gogo shell keeps each command's output in an inheritable
     * thread-local, a channel over the process's standard output, and a thread that inherited it and is interrupted
     * while it writes a log line (an executor's shutdownNow when its bundle stops) closes that channel, and with it
     * the process's standard output: the console answers nothing more and no log line reaches it (the file log goes
     * on). Seen in CI about one run in ten, after `update` and `refresh` of the core; proven with strace (the
     * refreshing thread redirected fd 1 to /dev/null, which is how the JDK closes a standard stream).
     */
    public static Thread named(Runnable task, String name) {
        return new Thread(null, task, name, 0, false);
    }

    /** {@link #named}, as a daemon. */
    public static Thread daemon(Runnable task, String name) {
        var t = named(task, name);
        t.setDaemon(true);
        return t;
    }
}
