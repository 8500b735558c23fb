// Fits each embedded estimator's <iframe> to its content. The embedded page (boot.js, in embed mode) posts
// {type: "rdma-step-estimator:height", height} to its parent whenever its content's height changes; this script,
// loaded once by the page that embeds it (the snippet of "Copy embed code" includes it), sets that iframe's height.
// Only a message from one of this page's iframes, from that iframe's own origin, is used, and the height is
// clamped, so nothing else can resize the page's frames.
window.addEventListener("message", (e) => {
  const d = e.data;
  if (!d || d.type !== "rdma-step-estimator:height" || typeof d.height !== "number" || !isFinite(d.height)) return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow !== e.source) continue;
    let origin;
    try {
      origin = new URL(frame.src, location.href).origin;
    } catch (_) {
      return;
    }
    if (origin !== e.origin) return;
    // The content height plus the frame's own border, so no scrollbar appears inside it.
    const border = frame.offsetHeight - frame.clientHeight;
    frame.style.height = Math.min(Math.max(Math.round(d.height), 200), 4000) + border + "px";
    return;
  }
});
