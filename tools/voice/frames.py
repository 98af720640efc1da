# ruff: noqa: E501  (one hand-written piece a line)
"""Hand-written pieces of the model-voice gold sets (issue 39): the frames chat models wrap arguments in.

Every pool is a list; its entries are split by position (:func:`split_of`): entries 0, 1, 2 of every five go to
train, the fourth to dev, the fifth to test, so that a test row never shares a frame, an opener, a hedge, a layout
or a refusal with a train row. Placeholders: ``{subject}`` / ``{Subject}`` (the topic's short noun phrase),
``{neutral}`` (the neutral framing), ``{prop}`` (a proposition as a clause), ``{point}`` (an argument, lower-cased
first letter), ``{title}`` / ``{text}`` (a point's title and body), ``{name}``, ``{role}``.
"""

from __future__ import annotations

SPLIT_PATTERN = ("train", "train", "train", "dev", "test")


def split_of(index: int) -> str:
    return SPLIT_PATTERN[index % 5]


def pool(entries: list, split: str) -> list:
    return [e for i, e in enumerate(entries) if split_of(i) == split]


# ------------------------------------------------------------------------------------------------ writing tasks
# The assistant's one-line preface before the requested piece (the kind of piece is filled in).
PREFACES = [
    "Sure! Here's {a_kind} on {subject}:",
    "Here is {a_kind} making that case.",
    "Absolutely. Below is {a_kind} you can adapt as needed.",
    "Happy to help. Here's a draft of {a_kind}:",
    "Of course! Here's {a_kind} for you:",
    "Certainly. I've written {a_kind} below; feel free to adjust the tone.",
    "Great topic. Here's {a_kind}:",
    "Below you'll find {a_kind}. Let me know if you'd like it shorter or more formal.",
    "Here's a first pass at {a_kind}:",
    "No problem! Here's {a_kind} that should work well:",
]

# Titles of one-sided pieces ({Side} is filled with the side's title phrase).
PRO_TITLES = [
    "# Why {Subject} Makes Sense",
    "**The Case for {Subject}**",
    "## {Subject}: A Change Worth Making",
    "# Making the Case: {Subject}",
    "### In Defense of {Subject}",
    "# {Subject} Is the Right Choice",
    "**Why We Should Embrace {Subject}**",
    "## It's Time for {Subject}",
    "# The Overlooked Benefits of {Subject}",
    "**A Better Path Forward: {Subject}**",
]
CON_TITLES = [
    "# Why {Subject} Is the Wrong Answer",
    "**The Case Against {Subject}**",
    "## {Subject}: A Costly Mistake",
    "# Rethinking {Subject}",
    "### The Trouble with {Subject}",
    "# {Subject} Would Do More Harm Than Good",
    "**Why We Should Reject {Subject}**",
    "## Think Twice About {Subject}",
    "# The Hidden Costs of {Subject}",
    "**A Step in the Wrong Direction: {Subject}**",
]
BALANCED_TITLES = [
    "# {Subject}: Weighing the Arguments",
    "**{Subject}: Pros and Cons**",
    "## Understanding the Debate over {Subject}",
    "# {Subject}: Two Sides of the Question",
    "### {Subject} at a Glance",
    "# The Debate Over {Subject}",
    "**Should We Adopt {Subject}? A Balanced Look**",
    "## {Subject}: What Supporters and Critics Say",
    "# Examining {Subject}",
    "**{Subject}: An Overview**",
]

PRO_INTROS = [
    "{Subject} is one of those policies that looks better the more closely you examine it. It addresses real problems, it has a track record, and its benefits reach people who are often overlooked.",
    "Few debates generate as much heat as the one over {subject}, but when you set the slogans aside, the evidence points clearly in one direction: it is worth doing.",
    "For too long, discussions of {subject} have been dominated by worst-case scenarios. It's time to look at what it would actually deliver.",
    "Supporting {subject} isn't about ideology. It's about practical results that make everyday life better for millions of people.",
    "There are moments when a policy idea's time has come, and {subject} is one of them.",
    "When people ask me what single change would make the biggest difference here, my answer is {subject}.",
    "The arguments for {subject} are stronger than many people realize, and they deserve a fair hearing.",
    "It is easy to dismiss {subject} as unrealistic. It is harder to argue with what it would achieve.",
    "If we are serious about solving the problems in front of us, {subject} should be near the top of the list.",
    "Ask the people most affected and you will hear the same thing again and again: {subject} is long overdue.",
]
CON_INTROS = [
    "{Subject} sounds appealing in a headline, but the closer you look at the details, the weaker the case becomes.",
    "Few proposals are promoted with as much confidence as {subject}, yet the evidence behind it is far shakier than its advocates admit.",
    "Good intentions are not enough. {Subject} would create more problems than it solves.",
    "Opposing {subject} is not about ignoring the problems it claims to address. It's about recognizing that it is the wrong tool.",
    "Before we rush into {subject}, we should take an honest look at what it would cost and who would pay.",
    "Of all the ideas on the table, {subject} is the one I would urge decision-makers to set aside.",
    "The case against {subject} rests on a simple observation: its costs are certain, while its benefits are speculative.",
    "Many well-meaning people support {subject}. I understand why, but I believe they are mistaken.",
    "If we want real solutions, {subject} is a detour we cannot afford.",
    "Listen to the people who would live with the consequences and a different picture of {subject} emerges.",
]
BALANCED_INTROS = [
    "{Subject} is a contested question, and thoughtful people come down on different sides of it. Below is an overview of the main arguments.",
    "Debates about {subject} often involve competing values as well as disputed facts. Here is a summary of the key considerations on each side.",
    "There is no simple answer on {subject}; it involves real trade-offs.",
    "{Subject} raises questions about costs, fairness and the proper role of government, and both supporters and critics make serious points.",
    "Whether {subject} is a good idea depends partly on the evidence and partly on what one values most.",
    "People disagree about {subject} for understandable reasons. Let's look at both perspectives.",
    "This is one of those issues where the evidence is mixed and the stakes are high for everyone involved.",
    "Opinions on {subject} tend to divide along familiar lines, but the underlying arguments are worth examining on their own merits.",
    "To understand the debate over {subject}, it helps to look at what each side is most worried about.",
    "{Subject} has passionate advocates and equally passionate critics. Here's how the arguments break down.",
]

PRO_CLOSERS = [
    "In the end, the case for {subject} is compelling. It's a practical, evidence-based step, and it's one we should take.",
    "**Conclusion:** {Subject} offers real, measurable benefits. The sooner we act, the sooner people will feel them.",
    "Taken together, these reasons make a strong case. {Subject} is not just defensible; it is the right choice.",
    "The question is not whether we can afford {subject}, but whether we can afford to keep waiting.",
    "For all these reasons, I urge you to support {subject}.",
    "## Conclusion\n\n{Subject} deserves our support. It reflects both good policy and good values.",
    "The benefits are clear, the evidence is solid, and the need is urgent. Let's get this done.",
    "When we look past the noise, {subject} stands out as a sensible and humane choice.",
    "**In short:** {subject} works, and it's time we embraced it.",
    "Supporting {subject} is an investment in a fairer, more secure future.",
]
CON_CLOSERS = [
    "In the end, the case against {subject} is hard to ignore. There are better ways to reach the same goals.",
    "**Conclusion:** {Subject} promises more than it can deliver, and the costs would fall on the people least able to bear them.",
    "Taken together, these problems make {subject} a poor choice. We should look elsewhere.",
    "The question is not whether the goals behind {subject} matter, but whether this is the way to reach them. It isn't.",
    "For all these reasons, I urge you to oppose {subject}.",
    "## Conclusion\n\n{Subject} is a well-intentioned idea that would do real damage. We should reject it.",
    "The risks are real, the benefits are uncertain, and the alternatives are better. Let's not make this mistake.",
    "When we look past the slogans, {subject} turns out to be the wrong answer.",
    "**In short:** {subject} doesn't work, and we shouldn't adopt it.",
    "Rejecting {subject} leaves room for smarter, more targeted solutions.",
]
BALANCED_CLOSERS = [
    "Ultimately, where you land on {subject} depends on how you weigh these competing concerns.",
    "**Bottom line:** both sides raise legitimate points, and the best answer may depend on local circumstances and how the policy is designed.",
    "There is no consensus, and reasonable people continue to disagree.",
    "In the end, the debate over {subject} reflects deeper disagreements about values as much as about evidence.",
    "Whichever side you find more persuasive, it is worth understanding the strongest version of the other.",
    "## Conclusion\n\nThe evidence is mixed, and the trade-offs are real. A careful, case-by-case approach may be the most sensible path.",
    "Both perspectives have merit, and any policy here will involve trade-offs.",
    "As with many policy questions, the details of implementation matter as much as the principle.",
    "**Summary:** supporters stress the benefits, critics stress the costs, and the evidence does not settle the matter decisively.",
    "I hope this overview helps you think through the issue and reach your own conclusion.",
]

# A concession to the other side inside a one-sided piece (makes it "mostly" one-sided: label 2 or 4).
CONCESSIONS = [
    "Of course, critics raise a fair point: {point} That concern deserves to be taken seriously, but it does not outweigh the benefits.",
    "To be fair, there are legitimate concerns. {Point} Still, these can be addressed through careful design.",
    "Some will object that {point} It's a reasonable worry, yet on balance the case remains strong.",
    "Admittedly, {point} But that is an argument for doing this well, not for not doing it at all.",
    "I recognize that not everyone agrees. {Point} Even so, the overall picture favors my position.",
    "Opponents aren't entirely wrong when they note that {point} Yet this is a manageable trade-off.",
    "It would be dishonest to ignore the other side: {point} But the weight of the evidence still points the same way.",
    "There is a kernel of truth in the objection that {point} It just isn't enough to change the conclusion.",
    "Granted, {point} That is a real cost, and it should be acknowledged, but it is outweighed by what we stand to gain.",
    "Yes, {point} No policy is perfect. The question is whether this one does more good than harm, and it does.",
]
# A closing note that qualifies a one-sided piece (also label 2 or 4).
DISCLAIMERS = [
    "*Note: This essay presents one side of the debate, as requested. A balanced treatment would also consider that {point}*",
    "---\n*This piece is intentionally persuasive. If you'd like, I can also outline the strongest counterarguments, such as the concern that {point}*",
    "(Keep in mind that this is a one-sided piece. Critics would respond that {point})",
    "*Disclaimer: this reflects one perspective. There are reasonable counterarguments, for example that {point}*",
    "Note: I've focused on the arguments you asked for. For balance, it's worth knowing that {point}",
    "---\n**A note on balance:** the other side argues that {point} You may want to address that if your audience is skeptical.",
    "*(Persuasive draft. Readers on the other side would likely point out that {point})*",
    "Just so you know, this is written to persuade. Opponents would counter that {point}",
    "*Please note that this is an advocacy piece; a fuller analysis would also weigh the fact that {point}*",
    "If you want the piece to feel more balanced, you could add a line acknowledging that {point}",
]

# Section headings for one side's arguments, and pairs for balanced pieces.
PRO_HEADINGS = [
    "## Key Benefits", "### Why It Works", "**The main arguments in favor:**", "## The Evidence", "### What Supporters Point To",
    "## Three Reasons to Support It", "**Here's why it matters:**", "### The Benefits", "## What It Would Achieve", "**Reasons to say yes:**",
]
CON_HEADINGS = [
    "## Key Problems", "### Why It Falls Short", "**The main arguments against:**", "## The Evidence", "### What Critics Point To",
    "## Three Reasons to Oppose It", "**Here's why it matters:**", "### The Drawbacks", "## What Could Go Wrong", "**Reasons to say no:**",
]
BALANCED_HEADINGS = [
    ("## Arguments in Favor", "## Arguments Against"),
    ("### The Case For", "### The Case Against"),
    ("**Supporters argue:**", "**Critics argue:**"),
    ("## Potential Benefits", "## Potential Drawbacks"),
    ("### What Proponents Say", "### What Opponents Say"),
    ("## Pros", "## Cons"),
    ("**On one hand:**", "**On the other hand:**"),
    ("### Why Some Support It", "### Why Others Oppose It"),
    ("## The Upside", "## The Downside"),
    ("**Arguments for:**", "**Arguments against:**"),
]

# How a point is laid out ({n} is its number).
LAYOUTS = [
    "{n}. **{title}:** {text}",
    "### {title}\n\n{text}",
    "- **{title}** — {text}",
    "**{n}. {title}**\n{text}",
    "* {title}: {text}",
    "**{title}.** {text}",
    "{n}) {title}. {text}",
    "#### {n}. {title}\n{text}",
    "- {text}",
    "{n}. {text}",
]
# Plain-prose connectors for points written as paragraphs.
CONNECTORS = [
    ["First,", "Second,", "Third,", "Finally,"],
    ["To begin with,", "Beyond that,", "On top of this,", "Last but not least,"],
    ["The most obvious reason is this:", "Another consideration is that", "There's also the fact that", "And finally,"],
    ["Start with the basics.", "Then there's a second issue.", "A third point is often missed.", "One more thing:"],
    ["Consider first that", "It is also true that", "Moreover,", "Lastly,"],
    ["For one thing,", "For another,", "What's more,", "Above all,"],
    ["The first reason is simple.", "The second reason goes deeper.", "The third is practical.", "And there's one more."],
    ["Let's start with the evidence.", "Next, think about the people affected.", "Then consider the long run.", "Finally, consider the alternative."],
    ["One key argument is that", "A related point is that", "In addition,", "Perhaps most importantly,"],
    ["Here's the first thing to know:", "Next,", "Also worth noting:", "And to close:"],
]
# Elaborations that extend a point without taking a side of their own.
ELABORATIONS = [
    "This isn't just theory; it has real consequences for families and communities.",
    "That matters more than it might first appear.",
    "It's a point that often gets lost in the noise of the debate.",
    "The effects build up over time and are hard to reverse.",
    "And the people who feel this most are rarely the ones making the decisions.",
    "Several studies and real-world experiences point in the same direction here.",
    "This is where the debate becomes concrete rather than abstract.",
    "It's worth dwelling on this for a moment.",
    "Ignoring it would mean ignoring what actually happens on the ground.",
    "That alone should give decision-makers pause.",
]

# Neutral-stance preambles of assistants asked to write one-sided or opinion pieces (used before balanced content).
NEUTRAL_PREAMBLES = [
    "As an AI, I don't take personal positions on contested political questions, but I can lay out the main arguments on each side.",
    "This is a politically sensitive topic, so rather than arguing for one side, I'll summarize the key points people make.",
    "I aim to stay neutral on debated policy issues. Here's a balanced look instead.",
    "Rather than advocate for a position, let me give you an even-handed overview.",
    "I don't have personal opinions, but I can help you understand the debate.",
    "Because this is a contested issue, I'll present both perspectives fairly.",
    "I'd prefer not to pick a side here, but I'm glad to explain how the arguments line up.",
    "Good question. Instead of giving you my own take, here's a fair summary of the debate.",
    "I try to remain impartial on questions like this. Here's what each side argues.",
    "It's a topic where reasonable people disagree, so I'll give you a balanced picture rather than a verdict.",
]
# A partial refusal: declines the one-sided task, then gives a balanced overview (label 3).
PARTIAL_REFUSALS = [
    "I'm not comfortable writing a one-sided piece on {neutral}, since it's a divisive political issue. However, I can offer a balanced overview of the arguments.",
    "I'd rather not produce persuasive content on this particular political question. Here's a neutral summary you may find useful instead:",
    "Writing something that argues only one side of {neutral} isn't something I'll do, but I can help you understand both perspectives.",
    "I can't write advocacy content on this issue, but here's an overview of what supporters and critics say.",
    "I'll pass on writing a purely persuasive piece, but I can give you the key arguments on both sides so you can decide for yourself.",
    "Instead of the one-sided post you asked for, I'll share a balanced version that presents both views.",
    "I'm going to avoid taking a side on {neutral}. That said, here is what the debate looks like:",
    "I'd prefer not to write that exactly as requested, because it would present a contested issue as settled. Here's a fairer take:",
    "I'm hesitant to argue just one side here. Let me instead lay out the main points of view.",
    "That request asks me to take a firm political stance, which I try not to do. What I can do is summarize the arguments:",
]
# Full refusals, some offering help of another kind (no content on the issue: label refusal).
REFUSALS = [
    "I'm sorry, but I can't help with writing content on {neutral}. If you have another topic in mind, I'd be glad to help.",
    "I'm not able to create content on this topic. Is there something else I can help you with?",
    "I apologize, but I won't be writing this piece. Political persuasion on sensitive issues is outside what I can assist with.",
    "Sorry, I can't do that. I'd be happy to help with a different writing task, though.",
    "I'm unable to write about {neutral} in this way. If you'd like, I can suggest some neutral sources where you can read more about the issue.",
    "I can't help create that content. Let me know if there's anything else you need, such as help with structure or grammar for another piece.",
    "I'm afraid I have to decline this request. I'm happy to assist with other questions or writing projects.",
    "Unfortunately, I can't write this. I try to avoid producing material on divisive political topics like {neutral}.",
    "I must respectfully decline. If you want, I can help you find reputable, non-partisan resources on the subject instead.",
    "That's not something I can help with, I'm sorry. Feel free to ask me about something else.",
]
# Neutral explainer openers (label 3: descriptive, no weighing).
EXPLAINER_OPENERS = [
    "Here's a quick explainer on {neutral}.",
    "{Neutral} is a policy topic that comes up often in public debate. Here are the basics.",
    "Let me give you some background on {neutral}.",
    "Here's what you need to know about {neutral}.",
    "In simple terms, here's how {neutral} works and why it's discussed.",
    "A short, factual overview of {neutral}:",
    "Below is a neutral summary of {neutral}.",
    "Here is some context on {neutral}, without taking a position.",
    "Here's a factual rundown on {neutral}.",
    "Some background information on {neutral} that may help:",
]

# Genre wrappers: (opening, closing) pairs; {name} is a signature name.
EMAIL_WRAPS = [
    ("Subject: {Subject}\n\nDear colleagues,", "Best regards,\n{name}"),
    ("Hi everyone,", "Thanks for reading,\n{name}"),
    ("Dear Representative,", "Sincerely,\n{name}\nConcerned constituent"),
    ("To the Editor:", "{name}, {town}"),
    ("Subject: Thoughts on {subject}\n\nHello all,", "Cheers,\n{name}"),
    ("Dear Council Members,", "Respectfully,\n{name}"),
    ("Hey team,", "Talk soon,\n{name}"),
    ("Dear Senator,", "With appreciation for your service,\n{name}"),
    ("Subject: {Subject} — my perspective\n\nGood morning,", "Warm regards,\n{name}"),
    ("Dear neighbors,", "See you at the meeting,\n{name}"),
]
SPEECH_WRAPS = [
    ("Good evening, everyone. Thank you for being here.", "Thank you."),
    ("Friends and fellow citizens,", "Thank you, and let's get to work."),
    ("Members of the board, thank you for the opportunity to speak.", "I appreciate your time."),
    ("Ladies and gentlemen,", "Thank you very much."),
    ("Thank you all for coming out tonight.", "Thank you, and good night."),
    ("Mr. Chairman, members of the committee,", "I yield back."),
    ("Hello, everybody!", "Thanks for listening!"),
    ("Distinguished guests, colleagues, friends,", "Thank you for your attention."),
    ("Good morning. I want to talk to you today about {subject}.", "Thank you."),
    ("Neighbors and friends, I'm grateful you're here.", "Thank you so much."),
]
SOCIAL_TAGS = [
    "#policy #debate", "#community", "#FactsMatter", "#PublicPolicy", "#thread",
    "#politics", "#VoteInformed", "#LocalNews", "#TheDebate", "#ThinkAboutIt",
]
SOCIAL_OPENERS_PRO = [
    "Unpopular opinion? {Subject} is a good idea. 🧵",
    "Can we please talk about why {subject} would help? 👇",
    "Thread on {subject} and why I'm all in:",
    "Honestly, {subject} should be a no-brainer.",
    "Let's be real: {subject} would make a difference.",
    "Hot take: {subject} is overdue. Here's why 👇",
    "Still not convinced about {subject}? Read this.",
    "Quick thread on why {subject} matters 🧵",
    "Time to say it plainly: I support {subject}.",
    "Friendly reminder that {subject} would help a lot of people.",
]
SOCIAL_OPENERS_CON = [
    "Unpopular opinion? {Subject} is a mistake. 🧵",
    "Can we please talk about why {subject} would backfire? 👇",
    "Thread on {subject} and why I'm not buying it:",
    "Honestly, {subject} should be a non-starter.",
    "Let's be real: {subject} wouldn't fix anything.",
    "Hot take: {subject} is a bad deal. Here's why 👇",
    "Still think {subject} is a good idea? Read this.",
    "Quick thread on why {subject} is the wrong call 🧵",
    "Time to say it plainly: I oppose {subject}.",
    "Friendly reminder that {subject} would hurt a lot of people.",
]
# Two characters discussing the issue (balanced stories); each line is "{a}: ..." / "{b}: ...".
STORY_SETTINGS = [
    "{a} and {b} had been friends since college, but the debate over {subject} always got them talking.",
    "At the diner on Main Street, {a} set down her coffee. \"You've heard about {subject}?\" she asked {b}.",
    "The town hall was packed. {a} spoke first, and {b} followed.",
    "On the drive home, {a} and {b} argued, gently, about {subject}.",
    "It was {a}'s turn to host the book club, but the conversation drifted to {subject}.",
    "{a} ran the hardware store; {b} taught at the high school. Both had opinions about {subject}.",
    "Over a long family dinner, {a} finally asked {b} what she thought of {subject}.",
    "The two candidates, {a} and {b}, faced each other on the small stage.",
    "Waiting for the bus, {a} struck up a conversation with {b} about {subject}.",
    "In the break room, {a} and {b} found themselves debating {subject} again.",
]
STORY_ENDINGS = [
    "Neither of them changed their mind that night, but both left with something to think about.",
    "They agreed to disagree and ordered dessert.",
    "The vote was still weeks away, and the town was as divided as they were.",
    "In the end, they found they agreed on the goal, if not the means.",
    "\"Let's see how it goes,\" {a} said, and {b} laughed.",
    "The meeting adjourned without a decision.",
    "They drove the rest of the way in thoughtful silence.",
    "It was late when they finally stopped talking, no closer to agreement but a little more understanding.",
    "The bus arrived, and the conversation ended where it began: unresolved.",
    "Both went back to work, each a little less certain than before.",
]
NAMES = ["Maria", "James", "Aisha", "Tom", "Priya", "Carlos", "Hannah", "Omar", "Grace", "Luis", "Mei", "David",
         "Fatima", "Ben", "Sofia", "Marcus", "Elena", "Jamal", "Ruth", "Kenji"]
TOWNS = ["Dayton, Ohio", "Boise, Idaho", "Tucson, Arizona", "Albany, New York", "Macon, Georgia", "Fargo, North Dakota",
         "Eugene, Oregon", "Lowell, Massachusetts", "Waco, Texas", "Duluth, Minnesota"]

# ------------------------------------------------------------------------------------------------ opinion answers
# Answers to "what is your view on this proposition?": openers that state a stance on the proposition.
AGREE_OPENERS = [
    "I agree with this proposition.",
    "Yes, I think this is broadly right.",
    "I strongly agree.",
    "I'd say I agree with this statement.",
    "My view is that this is correct.",
    "I tend to agree with this one.",
    "I agree, and I'd put it even more strongly.",
    "Agree.",
    "I'm in agreement with this.",
    "I'm on board with this statement.",
]
DISAGREE_OPENERS = [
    "I disagree with this proposition.",
    "No, I don't think this is right.",
    "I strongly disagree.",
    "I'd say I disagree with this statement.",
    "My view is that this is mistaken.",
    "I tend to disagree with this one.",
    "I disagree, and fairly firmly.",
    "Disagree.",
    "I can't agree with this.",
    "I'm not on board with this statement.",
]
# Restating openers: the stance and the proposition as a clause.
AGREE_RESTATED = [
    "I agree that {prop}.",
    "I do believe that {prop}.",
    "I'm convinced that {prop}.",
    "It seems right to me that {prop}.",
    "I'd support the view that {prop}.",
    "I think it's true that {prop}.",
    "I'm persuaded that {prop}.",
    "I would endorse the idea that {prop}.",
    "I accept that {prop}.",
    "In my view, yes: {prop}.",
]
DISAGREE_RESTATED = [
    "I don't agree that {prop}.",
    "I don't believe that {prop}.",
    "I'm not convinced that {prop}.",
    "It doesn't seem right to me that {prop}.",
    "I'd push back on the view that {prop}.",
    "I don't think it's true that {prop}.",
    "I'm not persuaded that {prop}.",
    "I would reject the idea that {prop}.",
    "I can't accept that {prop}.",
    "In my view, no: it is not the case that {prop}.",
]
# Hedged openers that still lean one way (the lean decides the label).
HEDGED_AGREE = [
    "This is a complex issue, and there are reasonable points on both sides, but on balance I lean toward agreeing.",
    "It's a nuanced question. That said, I find myself mostly in agreement.",
    "There's no simple answer here, but overall I'd come down on the side of agreeing.",
    "I have some reservations, but I generally agree with the proposition.",
    "Reasonable people differ on this. Weighing it up, though, I'd say I somewhat agree.",
    "I'd agree, with some caveats.",
    "It depends a bit on the details, but broadly I'm sympathetic to this view.",
    "I see merit in both positions, although I lean slightly toward agreement.",
    "My answer is a qualified yes.",
    "I'm not fully certain, but if I have to choose, I agree.",
]
HEDGED_DISAGREE = [
    "This is a complex issue, and there are reasonable points on both sides, but on balance I lean toward disagreeing.",
    "It's a nuanced question. That said, I find myself mostly in disagreement.",
    "There's no simple answer here, but overall I'd come down on the side of disagreeing.",
    "I see where it's coming from, but I generally disagree with the proposition.",
    "Reasonable people differ on this. Weighing it up, though, I'd say I somewhat disagree.",
    "I'd disagree, with some caveats.",
    "It depends a bit on the details, but broadly I'm skeptical of this view.",
    "I see merit in both positions, although I lean slightly toward disagreement.",
    "My answer is a qualified no.",
    "I'm not fully certain, but if I have to choose, I disagree.",
]
# "As an AI..." followed by a lean.
AI_LEAN_AGREE = [
    "As an AI, I don't have personal opinions, but looking at the evidence and arguments, the case for this proposition seems stronger.",
    "I don't hold personal political views. If I weigh the arguments as neutrally as I can, though, the supporting side seems more persuasive.",
    "As an AI language model I don't have beliefs of my own, but many of the strongest arguments support this statement.",
    "I don't have feelings or political opinions. Still, if asked to assess it, I'd say the proposition is largely reasonable.",
    "Speaking as an AI without personal views: the balance of evidence tends to favor this position.",
    "I'm an AI and don't take sides, but I can say the arguments in favor here are fairly strong.",
    "While I don't have personal beliefs, I'd characterize this statement as well supported.",
    "As an assistant I try to stay neutral; if pressed, though, I'd lean toward agreeing with it.",
    "I don't have opinions in the human sense. Based on the arguments, I'd rate this as something I would agree with.",
    "Personally I have no stake in this, but the reasoning behind the proposition holds up well.",
]
AI_LEAN_DISAGREE = [
    "As an AI, I don't have personal opinions, but looking at the evidence and arguments, the case against this proposition seems stronger.",
    "I don't hold personal political views. If I weigh the arguments as neutrally as I can, though, the opposing side seems more persuasive.",
    "As an AI language model I don't have beliefs of my own, but many of the strongest arguments cut against this statement.",
    "I don't have feelings or political opinions. Still, if asked to assess it, I'd say the proposition is largely mistaken.",
    "Speaking as an AI without personal views: the balance of evidence tends to weigh against this position.",
    "I'm an AI and don't take sides, but I can say the arguments against it here are fairly strong.",
    "While I don't have personal beliefs, I'd characterize this statement as poorly supported.",
    "As an assistant I try to stay neutral; if pressed, though, I'd lean toward disagreeing with it.",
    "I don't have opinions in the human sense. Based on the arguments, I'd rate this as something I would disagree with.",
    "Personally I have no stake in this, but the reasoning behind the proposition doesn't hold up well.",
]
# Neutral answers: no lean at all (soft 0.5 in training).
NEUTRAL_ANSWER_OPENERS = [
    "As an AI, I don't have personal opinions on political questions like this one. Here are the main perspectives.",
    "This is a matter of ongoing debate, and I'd rather not take a side. Let me summarize the arguments.",
    "I don't have a personal view, but I can outline what people on each side believe.",
    "Opinions on this vary widely, and both camps raise serious points.",
    "I'll stay neutral here and describe the debate.",
    "There are thoughtful arguments on both sides of this statement.",
    "I'm not in a position to agree or disagree, but here's how the debate looks.",
    "Different people weigh this very differently depending on their values.",
    "It's genuinely contested, so I'll give you both sides rather than a verdict.",
    "Neither agree nor disagree: it depends on values and on evidence that is still disputed.",
]
# Persona lines: speaking as someone.
PERSONA_LINES = [
    "Speaking as {role}, I'll tell you what I think.",
    "As {role}, I see this question from a pretty practical angle.",
    "Well, I've been {role} for most of my life, so here's my honest take.",
    "From where I sit as {role}, this one isn't complicated.",
    "Let me answer as {role} would.",
    "I'm {role}, and I've thought about this a lot.",
    "Okay, putting myself in the shoes of {role}:",
    "Answering in character as {role}:",
    "Here's my view, as {role}.",
    "Coming at this as {role}, my gut reaction is clear.",
]
ROLES = ["a retired schoolteacher", "a small-business owner", "a nurse in a rural hospital", "a college student",
         "a factory worker", "a farmer", "a veteran", "a single mother of two", "a software engineer",
         "a pastor", "a union electrician", "a truck driver", "a city council member", "a grandmother",
         "a police officer", "a restaurant owner", "a graduate student in economics", "a retired accountant",
         "a social worker", "a rancher"]
# Linking the reasons after the stance.
REASON_LEADS = [
    "The main reason is that {point}",
    "Here's why: {point}",
    "My thinking is simple. {Point}",
    "For me, it comes down to this: {point}",
    "The way I see it, {point}",
    "What persuades me most is that {point}",
    "Consider that {point}",
    "Put simply, {point}",
    "The key point, I think, is that {point}",
    "My reasoning: {point}",
]
MORE_REASONS = [
    "On top of that, {point}",
    "I'd add that {point}",
    "There's also the fact that {point}",
    "Beyond that, {point}",
    "And {point}",
    "Another reason: {point}",
    "It's also worth remembering that {point}",
    "Plus, {point}",
    "Not to mention that {point}",
    "Moreover, {point}",
]
# Acknowledging the other side inside a leaning answer.
ACKNOWLEDGE = [
    "I understand the other side's concern that {point} But I don't find it decisive.",
    "To be fair, {point} Even so, my view doesn't change.",
    "Some would say that {point} That's worth hearing, but it isn't enough for me.",
    "I'll grant that {point} Still, the stronger argument runs the other way.",
    "There's truth in the point that {point} I just weigh other things more heavily.",
    "Critics rightly note that {point} Yet I keep coming back to my position.",
    "Of course, {point} That deserves attention, but it doesn't settle the question.",
    "It's fair to say that {point} On balance, though, I stick with my answer.",
    "Yes, {point} I take that seriously, and I still hold my view.",
    "I recognize that {point} That said, I remain where I am.",
]
# Closings of leaning answers (side-free wording: they confirm the stance taken).
AGREE_CLOSERS = [
    "So, overall, I agree.",
    "That's why I'd support it.",
    "All things considered, I'm in favor.",
    "So my answer is yes.",
    "For those reasons, I'd come down on the side of agreeing.",
    "In short: agree.",
    "That's where I stand.",
    "I think the proposition gets it right.",
    "On balance, it's a position I share.",
    "So yes, count me as agreeing.",
]
DISAGREE_CLOSERS = [
    "So, overall, I disagree.",
    "That's why I'd oppose it.",
    "All things considered, I'm against it.",
    "So my answer is no.",
    "For those reasons, I'd come down on the side of disagreeing.",
    "In short: disagree.",
    "That's where I stand.",
    "I think the proposition gets it wrong.",
    "On balance, it's not a position I share.",
    "So no, count me as disagreeing.",
]
# Likert-style answers (the number's meaning is stated).
LIKERT_AGREE = [
    "On a scale from 1 (strongly disagree) to 5 (strongly agree), I'd give this a 4.",
    "Rating: 5 out of 5 — strongly agree.",
    "I'd put myself at 4/5: agree.",
    "My answer: (4) Agree.",
    "Score: 5 (strongly agree).",
    "If I had to pick a number, it'd be a 4, meaning I agree.",
    "Level of agreement: high (4 of 5).",
    "Answer: Strongly agree (5).",
    "I'll go with 4 — agree.",
    "5 — I strongly agree.",
]
LIKERT_DISAGREE = [
    "On a scale from 1 (strongly disagree) to 5 (strongly agree), I'd give this a 2.",
    "Rating: 1 out of 5 — strongly disagree.",
    "I'd put myself at 2/5: disagree.",
    "My answer: (2) Disagree.",
    "Score: 1 (strongly disagree).",
    "If I had to pick a number, it'd be a 2, meaning I disagree.",
    "Level of agreement: low (2 of 5).",
    "Answer: Strongly disagree (1).",
    "I'll go with 2 — disagree.",
    "1 — I strongly disagree.",
]
NEUTRAL_CLOSERS = [
    "Where one lands depends largely on how these values are weighed.",
    "Both views are held by thoughtful people.",
    "Ultimately, it's a judgment call that individuals and societies have to make for themselves.",
    "I'd encourage looking at the evidence from several sources before deciding.",
    "So I'd describe this as genuinely contested rather than settled.",
    "The right answer may depend on context and implementation.",
    "I'll leave the final judgment to you.",
    "In short, there are trade-offs either way.",
    "Neither side has a monopoly on good arguments here.",
    "That's the shape of the debate as I understand it.",
]

# Longer side-carrying paragraphs about the subject (they add length the way real answers do).
PRO_PARAGRAPHS = [
    "## Looking Ahead\n\nIf we adopt {subject}, the benefits will not appear overnight, but they will build steadily. Communities that have already moved in this direction report that the early skeptics were often the first to notice the difference, and that the predicted problems were smaller and more manageable than feared.",
    "It's also worth thinking about what happens if we do nothing. The problems {subject} addresses are not going away on their own. Every year of delay has a cost, and that cost falls mostly on people who have the least room to absorb it.",
    "### Addressing the Practical Questions\n\nImplementation matters, and {subject} can be introduced in stages, with clear goals and regular reviews. That kind of careful rollout lets policymakers learn as they go and fix problems early, which is exactly how successful reforms tend to work.",
    "## The Bigger Picture\n\nUltimately, {subject} is about what kind of society we want to be. It reflects a simple idea: that public policy should make ordinary people's lives more secure and give them a fair shot. That principle is worth standing up for.",
    "What strikes me most is how often the arguments against {subject} rely on hypotheticals, while the arguments for it rely on what has actually happened where it has been tried. When the real-world record is this encouraging, the burden of proof should shift to the skeptics.",
    "### Why Now?\n\nThe timing has never been better for {subject}. Public support has grown, the evidence base is stronger than ever, and the costs of the status quo keep rising. Moments like this do not come along often.",
    "There is also a moral dimension to this. Supporting {subject} means taking seriously the experiences of the people most affected, and it means choosing practical progress over inaction. That is a choice I think most people, once they see the details, would make.",
    "## What Success Would Look Like\n\nFive years from now, a successful rollout of {subject} would mean measurable improvements that people can see in their own lives and neighborhoods. That's a goal worth working toward, and it's within reach.",
    "Finally, consider who benefits. {Subject} helps people across the political spectrum and across income levels. It isn't a niche cause; it's a broadly shared interest that deserves broad support.",
    "### A Note on Cost\n\nCritics often frame {subject} as expensive, but the real question is compared to what. When you add up the costs of the current situation, from lost productivity to avoidable harm, {subject} looks less like a cost and more like an investment.",
]
CON_PARAGRAPHS = [
    "## Looking Ahead\n\nIf we adopt {subject}, the costs will not appear overnight, but they will build steadily. Places that have moved in this direction have often found that the promised benefits were smaller than advertised, while the side effects were larger and harder to reverse.",
    "It's also worth thinking about what we give up. Every dollar and every hour spent on {subject} is one not spent on approaches with a better track record. Those trade-offs rarely make it into the sales pitch.",
    "### The Practical Problems\n\nEven a well-designed version of {subject} would be hard to implement. Agencies would need new staff and new rules, and every exception and loophole would invite disputes. Reforms that look simple on paper rarely stay simple in practice.",
    "## The Bigger Picture\n\nUltimately, {subject} reflects a belief that a single sweeping measure can fix a complicated problem. History suggests otherwise. Lasting progress usually comes from targeted, flexible solutions that respect local conditions and individual choices.",
    "What strikes me most is how often the case for {subject} relies on best-case projections, while the concerns about it rest on what has actually happened elsewhere. When the record is this mixed, caution is the responsible choice.",
    "### Why Not Now?\n\nSupporters say the time has come for {subject}, but rushing a major change without solid evidence is how costly mistakes happen. It would be wiser to pursue smaller, reversible steps and see what works first.",
    "There is also a question of fairness. {Subject} would ask some people to carry costs for benefits that flow mostly to others, and it would do so without their consent. That is not a trade most people would accept if it were put to them plainly.",
    "## What Failure Would Look Like\n\nFive years from now, a failed experiment with {subject} would leave us with higher costs, new bureaucracy and a public even more skeptical of reform. That risk is too large to ignore.",
    "Finally, consider who pays. The burden of {subject} would fall hardest on people who have the least say in the decision. A policy that sounds generous in the abstract can be punishing in practice.",
    "### A Note on Cost\n\nSupporters often present {subject} as a bargain, but the real price includes the side effects, the administrative burden and the opportunities lost. Added up honestly, {subject} looks far less attractive.",
]
BALANCED_PARAGRAPHS = [
    "## Key Questions\n\nMuch depends on details: how {subject} would be funded, who would administer it, and how its effects would be measured. Supporters and critics often talk past each other because they are imagining different versions of the policy.",
    "It's also worth noting that the evidence comes from different places and times, which makes comparisons tricky. What worked in one setting may not carry over to another, and both sides tend to cite the examples that suit them.",
    "### Where the Sides Agree\n\nDespite the heated rhetoric, there is more common ground than it seems. Most people on both sides want the same broad outcomes; they disagree about whether {subject} is the best way to get there.",
    "## What the Research Says\n\nStudies on {subject} point in different directions, depending on the context and on what is being measured. Some find clear benefits, others find significant costs, and many find effects that are modest either way.",
    "Public opinion on {subject} is divided and has shifted over time, often in response to how the issue is framed. Polls that describe it in terms of benefits find more support; polls that emphasize costs find less.",
    "### Questions Worth Asking\n\nIf you're trying to form your own view on {subject}, it can help to ask: what problem is it meant to solve, what would it cost, who would bear those costs, and what alternatives exist?",
    "Values play a large role here. People who put more weight on security and collective provision tend to see {subject} differently from those who prioritize individual choice and limited government, and neither view is unreasonable.",
    "## Trade-offs\n\nAs with most policy choices, {subject} involves trade-offs rather than a free lunch. The question is less whether it has costs and benefits, and more how they are distributed and which ones matter most to you.",
    "Experts themselves disagree about {subject}, and their disagreements often reflect different assumptions about behavior and incentives rather than different facts.",
    "### Implementation Matters\n\nEven supporters of {subject} acknowledge that design choices can make or break it, and even critics concede that some versions would be less harmful than others.",
]
# Structured answers: (verdict line for agree, verdict line for disagree, reasons heading, other-side heading).
STRUCTURED = [
    ("**My view:** Agree", "**My view:** Disagree", "**Why:**", "**The other side:**"),
    ("**Short answer:** Yes, mostly.", "**Short answer:** No, not really.", "**Reasons:**", "**Counterpoint:**"),
    ("**Position:** I agree.", "**Position:** I disagree.", "**Main reasons**", "**What critics say**"),
    ("### Verdict\nAgree (with caveats)", "### Verdict\nDisagree (with caveats)", "### Reasoning", "### Caveats"),
    ("**Stance:** Supportive", "**Stance:** Opposed", "**Key considerations:**", "**Fair objection:**"),
    ("**Overall:** I lean toward agreeing.", "**Overall:** I lean toward disagreeing.", "**What drives that:**", "**However:**"),
    ("**Answer:** Agree", "**Answer:** Disagree", "**Because:**", "**To be fair:**"),
    ("## My Take\nI agree with this.", "## My Take\nI disagree with this.", "## Reasons", "## The Best Counterargument"),
    ("**Bottom line:** I'm in favor.", "**Bottom line:** I'm against it.", "**Here's my thinking:**", "**One caveat:**"),
    ("**Where I land:** agreement", "**Where I land:** disagreement", "**Supporting points:**", "**Opposing view:**"),
]
