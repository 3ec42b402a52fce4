/* xprobe: the X11 side of bench/run.py. Times are CLOCK_MONOTONIC seconds, the clock Python's time.monotonic()
 * reads, so they compare directly with the harness's and the bench server's timestamps.
 *
 *   xprobe wait [--title T] [--exact] [--pid P] [--window W] [--no-paint] [--timeout S] [--key [mods+]KEYSYM]
 *       Prints "ready" once it watches the screen, then waits for a viewable top-level window whose title
 *       (_NET_WM_NAME or WM_NAME) contains T (equals T with --exact) and, with --pid, whose _NET_WM_PID is P;
 *       then, unless --no-paint, for the first drawing into the screen after that (an XDamage report: the window
 *       was painted with that title). Prints "found T_TITLE T_PAINT WINDOW PID TITLE".
 *       With --key, focuses --window W, waits 50 ms, sends the key through XTEST and prints "sent T" first:
 *       the clock starts at the key press and nothing else runs between it and the watch.
 *   xprobe key WINDOW [mods+]KEYSYM        focuses WINDOW, sends the key through XTEST, prints "sent T".
 *   xprobe ping WINDOW INTERVAL_MS SECONDS
 *       Sends _NET_WM_PING to WINDOW every INTERVAL_MS for SECONDS, one at a time: GDK answers it from its main
 *       loop, so a round trip is as late as the app's main loop is busy. Prints "ping T RTT" per answer
 *       (RTT -1 if none within 2 s) and "summary N MAX MEDIAN LOST".
 *   xprobe damage WINDOW SECONDS MAX_HEIGHT
 *       Watches drawing into WINDOW for SECONDS through XDamage (one report per rectangle drawn). Reports no
 *       taller than MAX_HEIGHT are the progress bar's strip; reports less than 2 ms apart belong to one repaint.
 *       Prints "damage STRIP_REPAINTS OTHER_REPAINTS STRIP_REPORTS TALLEST_STRIP_REPORT".
 * Exit status: 0 found/done, 1 timeout, 2 usage or X error.
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/XTest.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static Display *dpy;
static Window root;
static Atom A_NET_WM_NAME, A_UTF8_STRING, A_NET_WM_PID, A_WM_PROTOCOLS, A_NET_WM_PING;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int ignore_errors(Display *d, XErrorEvent *e) { (void)d; (void)e; return 0; }

static char *window_title(Window w) {
    Atom type; int format; unsigned long n, after; unsigned char *data = NULL;
    if (XGetWindowProperty(dpy, w, A_NET_WM_NAME, 0, 4096, False, A_UTF8_STRING, &type, &format, &n, &after, &data)
            == Success && data && n > 0)
        return (char *)data;
    if (data) XFree(data);
    data = NULL;
    if (XGetWindowProperty(dpy, w, XA_WM_NAME, 0, 4096, False, AnyPropertyType, &type, &format, &n, &after, &data)
            == Success && data && n > 0)
        return (char *)data;
    if (data) XFree(data);
    return NULL;
}

static long window_pid(Window w) {
    Atom type; int format; unsigned long n, after; unsigned char *data = NULL; long pid = 0;
    if (XGetWindowProperty(dpy, w, A_NET_WM_PID, 0, 1, False, XA_CARDINAL, &type, &format, &n, &after, &data)
            == Success && data && n == 1)
        pid = (long)*(unsigned long *)data;
    if (data) XFree(data);
    return pid;
}

static int viewable(Window w) {
    XWindowAttributes a;
    if (!XGetWindowAttributes(dpy, w, &a)) return 0;
    return a.map_state == IsViewable;
}

static void watch(Window w) { XSelectInput(dpy, w, PropertyChangeMask | StructureNotifyMask); }

static const char *want_title;
static int exact;
static long want_pid;
static Window want_window;

/* The window if it matches, else 0; fills title. */
static Window check(Window w, char **title_out) {
    if (want_window && w != want_window) return 0;
    if (!viewable(w)) return 0;
    if (want_pid && window_pid(w) != want_pid) return 0;
    char *title = window_title(w);
    if (want_title) {
        if (!title) return 0;
        int ok = exact ? strcmp(title, want_title) == 0 : strstr(title, want_title) != NULL;
        if (!ok) { XFree(title); return 0; }
    }
    *title_out = title;
    return w;
}

static int parse_key(const char *spec, KeySym *mods, int *nmods, KeySym *key) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    *nmods = 0;
    char *part = buf, *plus;
    while ((plus = strchr(part, '+')) && plus[1]) {
        *plus = 0;
        if (!strcmp(part, "ctrl")) mods[(*nmods)++] = XK_Control_L;
        else if (!strcmp(part, "alt")) mods[(*nmods)++] = XK_Alt_L;
        else if (!strcmp(part, "shift")) mods[(*nmods)++] = XK_Shift_L;
        else return 0;
        part = plus + 1;
    }
    *key = XStringToKeysym(part);
    return *key != NoSymbol;
}

static void focus(Window w) {
    XSetInputFocus(dpy, w, RevertToParent, CurrentTime);
    XSync(dpy, False);
    usleep(50000);
}

/* Sends the key; returns the time just before the press reached the server. */
static double send_key(const char *spec) {
    KeySym mods[4], key; int nmods;
    if (!parse_key(spec, mods, &nmods, &key)) { fprintf(stderr, "xprobe: bad key %s\n", spec); exit(2); }
    for (int i = 0; i < nmods; i++) XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, mods[i]), True, CurrentTime);
    XSync(dpy, False);
    double t = now();
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, key), True, CurrentTime);
    XFlush(dpy);
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, key), False, CurrentTime);
    for (int i = nmods - 1; i >= 0; i--) XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, mods[i]), False, CurrentTime);
    XSync(dpy, False);
    return t;
}

/* Waits for the next X event up to `deadline`; returns 0 on timeout. */
static int next_event(XEvent *ev, double deadline) {
    while (!XPending(dpy)) {
        double left = deadline - now();
        if (left <= 0) return 0;
        struct pollfd p = { ConnectionNumber(dpy), POLLIN, 0 };
        poll(&p, 1, (int)(left * 1000) + 1);
    }
    XNextEvent(dpy, ev);
    return 1;
}

static int cmd_wait(int argc, char **argv) {
    double timeout = 30;
    int paint = 1;
    const char *key = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--title") && i + 1 < argc) want_title = argv[++i];
        else if (!strcmp(argv[i], "--exact")) exact = 1;
        else if (!strcmp(argv[i], "--pid") && i + 1 < argc) want_pid = atol(argv[++i]);
        else if (!strcmp(argv[i], "--window") && i + 1 < argc) want_window = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--no-paint")) paint = 0;
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "--key") && i + 1 < argc) key = argv[++i];
        else { fprintf(stderr, "xprobe wait: bad argument %s\n", argv[i]); return 2; }
    }
    int damage_event, damage_error;
    if (paint && !XDamageQueryExtension(dpy, &damage_event, &damage_error)) {
        fprintf(stderr, "xprobe: no DAMAGE extension\n");
        return 2;
    }
    XSelectInput(dpy, root, SubstructureNotifyMask);
    /* Damage on the root window reports drawing into every window on the screen. */
    if (paint) XDamageCreate(dpy, root, XDamageReportRawRectangles);
    Window *children = NULL, parent, r; unsigned int n = 0;
    XQueryTree(dpy, root, &r, &parent, &children, &n);
    for (unsigned int i = 0; i < n; i++) watch(children[i]);
    XSync(dpy, False);
    Window found = 0; char *title = NULL; double t_title = 0;
    /* Windows that already match before the key (e.g. the same title) must not count: with --key, the
       match has to happen on a property change after it. */
    if (key) {
        if (!want_window) { fprintf(stderr, "xprobe wait --key needs --window\n"); return 2; }
        focus(want_window);
        while (XPending(dpy)) { XEvent ev; XNextEvent(dpy, &ev); }
        printf("sent %.6f\n", send_key(key));
    } else {
        printf("ready\n");
        fflush(stdout);
        for (unsigned int i = 0; i < n && !found; i++)
            if ((found = check(children[i], &title))) t_title = now();
    }
    fflush(stdout);
    if (children) XFree(children);
    double deadline = now() + timeout;
    XEvent ev;
    while (!found) {
        if (!next_event(&ev, deadline)) { printf("timeout\n"); return 1; }
        Window w = 0;
        if (ev.type == CreateNotify) { watch(ev.xcreatewindow.window); w = ev.xcreatewindow.window; }
        else if (ev.type == MapNotify) w = ev.xmap.window;
        else if (ev.type == PropertyNotify) w = ev.xproperty.window;
        if (w && (found = check(w, &title))) t_title = now();
    }
    double t_paint = t_title;
    if (paint) {
        for (;;) {
            if (!next_event(&ev, deadline)) { printf("timeout painting\n"); return 1; }
            if (ev.type == damage_event + XDamageNotify) { t_paint = now(); break; }
        }
    }
    printf("found %.6f %.6f 0x%lx %ld %s\n", t_title, t_paint, found, window_pid(found), title ? title : "");
    return 0;
}

static int cmd_key(int argc, char **argv) {
    if (argc != 2) return 2;
    Window w = strtoul(argv[0], NULL, 0);
    focus(w);
    printf("sent %.6f\n", send_key(argv[1]));
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmd_ping(int argc, char **argv) {
    if (argc != 3) return 2;
    Window w = strtoul(argv[0], NULL, 0);
    double interval = atof(argv[1]) / 1000, seconds = atof(argv[2]);
    /* GDK sends the answer to the root window with SubstructureNotify|SubstructureRedirect. */
    XSelectInput(dpy, root, SubstructureNotifyMask);
    XSync(dpy, False);
    int cap = (int)(seconds / interval) + 16, count = 0, lost = 0;
    double *rtts = calloc(cap, sizeof(double)), end = now() + seconds, worst = 0;
    unsigned long serial = 1;
    while (now() < end && count < cap) {
        XEvent ev = { 0 };
        ev.xclient.type = ClientMessage;
        ev.xclient.window = w;
        ev.xclient.message_type = A_WM_PROTOCOLS;
        ev.xclient.format = 32;
        ev.xclient.data.l[0] = A_NET_WM_PING;
        ev.xclient.data.l[1] = (long)serial;   /* the timestamp slot carries a serial number back */
        ev.xclient.data.l[2] = w;
        double sent = now();
        XSendEvent(dpy, w, False, NoEventMask, &ev);
        XFlush(dpy);
        double rtt = -1, deadline = sent + 2;
        XEvent reply;
        while (next_event(&reply, deadline)) {
            if (reply.type == ClientMessage && reply.xclient.message_type == A_WM_PROTOCOLS
                    && (Atom)reply.xclient.data.l[0] == A_NET_WM_PING && (unsigned long)reply.xclient.data.l[1] == serial) {
                rtt = now() - sent;
                break;
            }
        }
        serial++;
        printf("ping %.6f %.6f\n", sent, rtt);
        if (rtt < 0) lost++;
        else { rtts[count++] = rtt; if (rtt > worst) worst = rtt; }
        double next = sent + interval, left = next - now();
        if (left > 0) usleep((useconds_t)(left * 1e6));
    }
    qsort(rtts, count, sizeof(double), cmp_double);
    printf("summary %d %.6f %.6f %d\n", count, worst, count ? rtts[count / 2] : -1.0, lost);
    return 0;
}

static int cmd_damage(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: xprobe damage WINDOW SECONDS MAX_HEIGHT\n"); return 2; }
    Window w = strtoul(argv[0], NULL, 0);
    double seconds = atof(argv[1]);
    int max_height = atoi(argv[2]);
    int damage_event, damage_error;
    if (!XDamageQueryExtension(dpy, &damage_event, &damage_error)) { fprintf(stderr, "xprobe: no XDamage\n"); return 2; }
    XDamageCreate(dpy, w, XDamageReportRawRectangles);
    XSync(dpy, False);
    long strip_repaints = 0, other_repaints = 0, strip_reports = 0;
    int tallest = 0;
    double last_strip = -1, last_other = -1, deadline = now() + seconds;
    XEvent ev;
    while (next_event(&ev, deadline)) {
        if (ev.type != damage_event + XDamageNotify) continue;
        XDamageNotifyEvent *d = (XDamageNotifyEvent *)&ev;
        double t = now();
        if (d->area.height <= max_height) {
            strip_reports++;
            if (d->area.height > tallest) tallest = d->area.height;
            if (t - last_strip > 0.002) strip_repaints++;
            last_strip = t;
        } else {
            if (t - last_other > 0.002) other_repaints++;
            last_other = t;
        }
    }
    printf("damage %ld %ld %ld %d\n", strip_repaints, other_repaints, strip_reports, tallest);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) { fprintf(stderr, "usage: xprobe wait|key|ping ...\n"); return 2; }
    dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "xprobe: cannot open display\n"); return 2; }
    XSetErrorHandler(ignore_errors);
    root = DefaultRootWindow(dpy);
    A_NET_WM_NAME = XInternAtom(dpy, "_NET_WM_NAME", False);
    A_UTF8_STRING = XInternAtom(dpy, "UTF8_STRING", False);
    A_NET_WM_PID = XInternAtom(dpy, "_NET_WM_PID", False);
    A_WM_PROTOCOLS = XInternAtom(dpy, "WM_PROTOCOLS", False);
    A_NET_WM_PING = XInternAtom(dpy, "_NET_WM_PING", False);
    if (!strcmp(argv[1], "wait")) return cmd_wait(argc - 2, argv + 2);
    if (!strcmp(argv[1], "key")) return cmd_key(argc - 2, argv + 2);
    if (!strcmp(argv[1], "ping")) return cmd_ping(argc - 2, argv + 2);
    if (!strcmp(argv[1], "damage")) return cmd_damage(argc - 2, argv + 2);
    fprintf(stderr, "xprobe: unknown command %s\n", argv[1]);
    return 2;
}
