"""Built-in first-name lists by gender, for the gender of name mentions.

Source: the most frequent first names of the 1990 U.S. Census name files
(`dist.male.first`, `dist.female.first`, U.S. Census Bureau, a work of the U.S. federal
government and therefore in the public domain), plus a few forms frequent in 19th-century
English fiction (LitBank) that the census lists rank low; hand-selected, lower-cased. Names
that are frequent for both genders in the census lists (e.g. "jean", "terry") are left out, so a
listed name fixes the gender of its mention.
"""

MALE_FIRST_NAMES = frozenset(
    """
james john robert michael william david richard charles joseph thomas christopher daniel paul
mark donald george kenneth steven edward brian ronald anthony kevin jason matthew gary timothy
larry jeffrey frank scott eric stephen andrew raymond gregory joshua jerry dennis walter patrick
peter harold douglas henry carl arthur ryan roger joe juan jack albert jonathan justin gerald
keith samuel ralph lawrence nicholas roy benjamin bruce brandon adam harry fred wayne billy steve
louis jeremy aaron randy howard eugene carlos russell bobby victor martin ernest phillip todd
jesse craig alan shawn clarence sean philip chris johnny earl jimmy antonio danny bryan tony luis
mike stanley leonard nathan dale manuel rodney curtis norman allen marvin vincent glenn jeffery
travis jeff chad jacob lee melvin alfred kyle francis bradley jesus herbert frederick ray joel
edwin don eddie ricky troy randall barry alexander bernard mario leroy francisco marcus micheal
theodore clifford miguel oscar jay jim tom calvin alex jon ronnie bill lloyd tommy leon derek
warren darrell jerome floyd leo alvin tim wesley gordon dean greg jorge dustin pedro derrick dan
lewis zachary corey herman maurice vernon roberto clyde glen hector shane ricardo sam rick lester
brent ramon charlie tyler gilbert gene marc reginald ruben brett angel nathaniel rafael leslie
edgar milton raul ben chester cecil duane franklin andre elmer brad gabriel ron mitchell roland
arnold harvey jared adrian karl cory claude erik darryl jamie neil jessie christian javier
fernando clinton ted mathew tyrone darren lonnie lance cody julio kelly kurt allan nelson guy
clayton hugh max dwayne dwight armando felix jimmie everett jordan ian wallace ken bob jaime
casey alfredo alberto dave ivan johnnie sidney byron julian isaac morris clifton willard daryl
ross virgil andy marshall salvador perry kirk sergio marion tracy seth kent terrance rene eduardo
terrence enrique freddie wade edmund ichabod abraham moses jacob isaac tobias silas jude edmund
hubert reginald cyril rupert basil horace lucius archibald mortimer ambrose jonas hiram ezra
""".split()
)

FEMALE_FIRST_NAMES = frozenset(
    """
mary patricia linda barbara elizabeth jennifer maria susan margaret dorothy lisa nancy karen
betty helen sandra donna carol ruth sharon michelle laura sarah kimberly deborah jessica shirley
cynthia angela melissa brenda amy anna rebecca virginia kathleen pamela martha debra amanda
stephanie carolyn christine marie janet catherine frances ann joyce diane alice julie heather
teresa doris gloria evelyn cheryl mildred katherine joan ashley judith rose janice nicole judy
christina kathy theresa beverly denise tammy irene jane lori rachel marilyn andrea kathryn louise
sara anne jacqueline wanda bonnie julia ruby lois tina phyllis norma paula diana annie lillian
emily robin peggy crystal gladys rita dawn connie florence tracy edna tiffany carmen rosa cindy
grace wendy victoria edith kim sherry sylvia josephine thelma shannon sheila ethel ellen elaine
marjorie carrie charlotte monica esther pauline emma juanita anita rhonda hazel amber eva debbie
april clara lucille joanne eleanor valerie danielle megan alicia suzanne michele gail bertha
darlene veronica jill erin geraldine lauren cathy joann lorraine lynn sally regina erica beatrice
dolores bernice audrey yvonne annette june samantha marion dana stacy ana renee ida vivian roberta
holly brittany melanie loretta yolanda jeanette laurie katie kristen vanessa alma sue elsie beth
jeanne vicki carla tara rosemary eileen terri gertrude lucy tonya ella stacey wilma gina kristin
jessie natalie agnes vera charlene bessie delores melinda pearl arlene maureen colleen allison
tamara joy georgia constance lillie claudia jackie marcia tanya nellie minnie marlene heidi
glenda lydia viola courtney marian stella caroline dora vickie mattie maxine irma mabel marsha
myrtle lena christy deanna patsy hilda gwendolyn jennie nora margie nina cassandra leah penny kay
priscilla naomi carole olga billie dianne tracey leona jenny felicia sonia miriam velma becky
bobbie violet kristina toni misty mae shelly daisy ramona sherri erika katrina claire lucy
harriet isabel isabella cecilia adela jane mina lucy tess sophia sophie augusta henrietta
margaret matilda beatrix eliza estelle ellen hester maud nelly
""".split()
)
