// The stand-alone page (GET /). In demo mode it offers the seeded customers and gets
// each a token from /v1/demo/token; otherwise it takes a token from the address
// fragment (#token=…, never sent to the server, so never in an access log).

import { mount } from "./widget.js";

const picker = document.getElementById("customer-picker");
const select = document.getElementById("customer-select");
const notice = document.getElementById("page-notice");
const container = document.getElementById("assistant");
const STORAGE_KEY = "assistant.demo.customer";

let widget = null;

function showNotice(html) {
  notice.innerHTML = html;
  notice.hidden = false;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The demo customers, or null when demo mode is off (404). Retries while unreachable. */
async function demoCustomers() {
  for (let delay = 500; ; delay = Math.min(delay * 2, 8000)) {
    try {
      const response = await fetch("/v1/demo/customers", { headers: { Accept: "application/json" } });
      if (response.status === 404) return null;
      if (response.ok) {
        notice.hidden = true;
        return (await response.json()).customers;
      }
    } catch {
      // The service is down; say so and try again.
    }
    showNotice("The assistant is not reachable right now. Trying again…");
    await sleep(delay);
  }
}

async function demoToken(customerId) {
  const response = await fetch("/v1/demo/token", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ customer_id: customerId }),
  });
  if (!response.ok) throw new Error(`demo token: HTTP ${response.status}`);
  return (await response.json()).token;
}

function talkAs(customer) {
  if (widget) widget.destroy();
  localStorage.setItem(STORAGE_KEY, customer.id);
  const url = new URL(window.location.href);
  url.searchParams.set("customer", customer.id);
  history.replaceState(null, "", url);
  widget = mount(container, {
    title: "Chat with us",
    customerName: customer.name || customer.id,
    storageKey: customer.id,
    getToken: () => demoToken(customer.id),
  });
}

function startDemo(customers) {
  const wanted =
    new URLSearchParams(window.location.search).get("customer") ||
    localStorage.getItem(STORAGE_KEY);
  const initial = customers.find((c) => c.id === wanted) || customers[0];
  for (const customer of customers) {
    const option = document.createElement("option");
    option.value = customer.id;
    option.textContent = customer.name ? `${customer.name} (${customer.id})` : customer.id;
    select.append(option);
  }
  select.value = initial.id;
  select.addEventListener("change", () => {
    talkAs(customers.find((c) => c.id === select.value));
  });
  picker.addEventListener("submit", (event) => event.preventDefault());
  picker.hidden = false;
  talkAs(initial);
}

function startWithToken() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get("token") || sessionStorage.getItem("assistant.token");
  if (!token) {
    showNotice(
      "This page needs a session token. Create one with " +
        "<code>assistant token --customer cust_001</code> and open this page as " +
        "<code>/#token=&lt;token&gt;</code>, or embed the widget in your own site.",
    );
    return;
  }
  // Keep it for reloads of this tab, and out of the address bar.
  sessionStorage.setItem("assistant.token", token);
  if (fragment.has("token")) history.replaceState(null, "", window.location.pathname);
  widget = mount(container, { title: "Chat with us", token });
}

const customers = await demoCustomers();
if (customers && customers.length) startDemo(customers);
else startWithToken();
