// The chat page: one WebSocket to /chat?nick=NAME; each line the server sends is appended to
// #log, each line typed into the form is sent. #status says "connected as NAME" while open.
"use strict";

const nick = new URLSearchParams(location.search).get("nick") || "guest";
const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new WebSocket(`${scheme}://${location.host}/chat?nick=${encodeURIComponent(nick)}`);
const state = document.getElementById("status");
const text = document.getElementById("text");
const send = document.getElementById("send");

function append(line) {
  const item = document.createElement("li");
  item.textContent = line;
  document.getElementById("log").append(item);
}

function connected(open) {
  state.textContent = open ? `connected as ${nick}` : "disconnected (reload to join again)";
  text.disabled = send.disabled = !open;
  if (open) text.focus();
}

socket.onopen = () => connected(true);
socket.onclose = () => connected(false);
socket.onmessage = (event) => append(event.data);

document.getElementById("say").addEventListener("submit", (event) => {
  event.preventDefault();
  if (text.value.trim() !== "") socket.send(text.value);
  text.value = "";
});
