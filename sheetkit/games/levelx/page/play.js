// Level X turn entry: the total of each group, shown while the dice are tapped. The turn
// is still one form sent to the server, which checks it; without this script the form
// works the same, only without the running totals.
(function () {
  var form = document.getElementById("move-form");
  var out = document.getElementById("lx-sums");
  if (!form || !out) return;
  function picked(name) {
    var el = form.querySelector('input[name="' + name + '"]:checked');
    return el ? el.value : null;
  }
  function show() {
    var sums = {}, order = [];
    for (var i = 0; i < 4; i++) {
      var d = picked("die" + i), g = picked("group" + i);
      if (d === null || g === null || g === "-") continue;
      if (!(g in sums)) { sums[g] = []; order.push(g); }
      sums[g].push(d);
    }
    order.sort();
    out.textContent = order.map(function (g) {
      var dice = sums[g], total = dice.reduce(function (a, b) { return a + Number(b); }, 0);
      return g + ": " + dice.join("+") + " = " + total;
    }).join("  ·  ");
  }
  form.addEventListener("change", show);
  show();
})();
